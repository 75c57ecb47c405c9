"""The bank's calendar day, for the scripts and browser tests that name "today".

One copy for all of them (the browser tests, the clearing interop test, the robustness probe):
stop 85 found three, made when a proof started at 22:52 UTC failed three suites that asked for
the machine's day.
"""
import datetime
import zoneinfo

# The demo banks' zone, as `BankCalendar` keeps it.
BANK_ZONE = zoneinfo.ZoneInfo("Europe/Zurich")


def bank_today():
    """The bank's calendar day: what it books and exports under. why not date.today(): from
    23:00 UTC (22:00 in summer) the machine's day is the day before the bank's."""
    return datetime.datetime.now(BANK_ZONE).date()
