"""What the editions API accepts and returns."""

from __future__ import annotations

from datetime import datetime

from pydantic import BaseModel, ConfigDict, Field

from app.validation import ApiModel


class RedeemRequest(ApiModel):
    model_config = ConfigDict(extra="forbid")

    code: str = Field(
        min_length=1, max_length=64,
        description="The box's activation code, e.g. 7K3M-QX9T-4HNW-PD2R-8CVA; case, spaces "
        "and dashes do not matter (O reads as 0, I and L as 1)",
    )


class EditionOut(BaseModel):
    edition: str = Field(description="pro: the Pro tier of Base on Board")
    redeemed_at: datetime
