"""Editions: what a board game box's activation code (정품 인증번호) unlocks for an account."""
