"""Accounts, passwords, guest play and device sessions."""
