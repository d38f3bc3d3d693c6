"""ghost"""
