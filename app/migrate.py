"""Applies Alembic migrations programmatically, so ``bob migrate`` needs no alembic.ini on disk."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from app.settings import ROOT, get_settings


def alembic_config(database_url: str | None = None) -> Config:
    config = Config()
    config.set_main_option("script_location", str(ROOT / "migrations"))
    config.set_main_option("sqlalchemy.url", database_url or get_settings().database_url)
    return config


def upgrade_to_head(database_url: str | None = None) -> None:
    url = database_url or get_settings().database_url
    if url.startswith("sqlite") and ":///" in url:
        Path(url.split(":///", 1)[1]).parent.mkdir(parents=True, exist_ok=True)
    command.upgrade(alembic_config(url), "head")
