"""Activation codes: only the SHA-256 of each code is stored, with its edition and who redeemed
it."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import ForeignKey, String, UniqueConstraint
from sqlalchemy.orm import Mapped, mapped_column

from app.accounts.models import Account
from app.db import Base, UtcDateTime, utcnow


class EditionCode(Base):
    """One minted code. ``redeemed_by`` is set once, by a conditional ``UPDATE`` (see
    :func:`app.editions.service.redeem`); the editions an account holds are the codes it
    redeemed, so there is nothing else to keep in step."""

    __tablename__ = "edition_codes"
    __table_args__ = (
        # One code per edition per account (a second one is left for someone else), and the
        # index that answers "which editions does this account hold". NULLs are distinct on
        # both databases, so codes not yet redeemed never clash.
        UniqueConstraint("redeemed_by", "edition", name="uq_edition_codes_redeemed_by"),
    )

    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    edition: Mapped[str] = mapped_column(String(16))
    minted_at: Mapped[datetime] = mapped_column(UtcDateTime, default=utcnow)
    redeemed_by: Mapped[str | None] = mapped_column(ForeignKey(Account.id))
    """The column itself, not its name: a process that imports only this model (``bob codes
    mint``) still knows the table it points at."""
    redeemed_at: Mapped[datetime | None] = mapped_column(UtcDateTime)
