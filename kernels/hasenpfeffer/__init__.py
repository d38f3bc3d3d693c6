"""hasenpfeffer"""
