"""The seeded accounts and their balances."""

from __future__ import annotations

import re
from dataclasses import dataclass
from decimal import Decimal

__all__ = [
    "DEMO_EMAIL",
    "DEMO_PASSWORD",
    "LOW_BALANCE_EMAIL",
    "LOW_BALANCE_PASSWORD",
    "Account",
    "BalanceTooLowError",
    "meets_password_rules",
    "seed_accounts",
]

# Published demo credentials of a fake service, not secrets.
DEMO_EMAIL = "demo@example.com"
DEMO_PASSWORD = "Demo12345"  # noqa: S105
LOW_BALANCE_EMAIL = "az@example.com"
LOW_BALANCE_PASSWORD = "Az123456"  # noqa: S105

_SEEDS = (
    (DEMO_EMAIL, DEMO_PASSWORD, Decimal(500)),
    (LOW_BALANCE_EMAIL, LOW_BALANCE_PASSWORD, Decimal(20)),
)
# At least 8 characters with an upper-case letter, a lower-case letter and a digit.
_PASSWORD_RULES = re.compile(r"(?=.*[A-ZÇĞİÖŞÜ])(?=.*[a-zçğıöşü])(?=.*\d).{8,}")


class BalanceTooLowError(Exception):
    """A charge larger than the balance; nothing was charged."""

    def __init__(self, required: Decimal, current: Decimal) -> None:
        super().__init__(f"required {required} TL, balance {current} TL")
        self.required = required
        self.current = current


@dataclass
class Account:
    """One user of the service with the balance articles are charged to."""

    email: str
    password: str
    balance: Decimal

    def charge(self, amount: Decimal) -> None:
        """Take `amount` off the balance, or raise `BalanceTooLowError` and take nothing."""
        if amount > self.balance:
            raise BalanceTooLowError(amount, self.balance)
        self.balance -= amount


def meets_password_rules(password: str) -> bool:
    """Whether the password satisfies the service's password requirements."""
    return _PASSWORD_RULES.fullmatch(password) is not None


def seed_accounts() -> list[Account]:
    """Fresh copies of the fixed accounts every sandbox starts with."""
    accounts = [Account(email, password, balance) for email, password, balance in _SEEDS]
    weak = [account.email for account in accounts if not meets_password_rules(account.password)]
    if weak:
        raise ValueError(f"seeded passwords break the password rules: {weak}")
    return accounts
