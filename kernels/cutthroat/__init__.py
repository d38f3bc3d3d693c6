"""cutthroat"""
