"""Test doubles shared by several test folders."""
