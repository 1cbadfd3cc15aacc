"""Entries refused by the event's settings (issue 6): late registration, re-entry, rebuys, add-on."""

from __future__ import annotations

import doctest

import pytest
from hypothesis import given
from hypothesis import strategies as st

from director.poker.errors import RuleViolation
from director.tournament import entries as entries_module
from director.tournament.entries import (
    AddOn,
    EntryKind,
    EntryRefused,
    EntryRules,
    EntrySettingsError,
    PlayerEntries,
    Purchase,
    Rebuy,
    ReEntry,
    average_stack,
    can_purchase,
    chips_in_play,
    purchase,
    verify_purchase,
)
from director.tournament.money import BuyIn, pool_from_payments

REGISTERED = PlayerEntries(entries=1)


def rules(**changes) -> EntryRules:
    settings = dict(
        buy_in=BuyIn(10_000, 1_000),
        starting_stack=20_000,
        late_registration_level=6,
        re_entry=ReEntry(max_re_entries=2),
        rebuy=Rebuy(BuyIn(10_000, 500), chips=20_000, until_level=6),
        add_on=AddOn(BuyIn(5_000), chips=30_000, at_break=6),
    )
    settings.update(changes)
    return EntryRules(**settings)


def refusal(rules_: EntryRules, kind: EntryKind, player: PlayerEntries, **moment) -> str:
    with pytest.raises(EntryRefused) as refused:
        verify_purchase(rules_, kind, player, **moment)
    assert not can_purchase(rules_, kind, player, **moment)
    return refused.value.message


def test_docstring_examples_hold():
    assert doctest.testmod(entries_module).failed == 0


def test_entry_refused_is_a_rule_violation_with_a_translatable_template():
    with pytest.raises(EntryRefused) as refused:
        purchase(rules(), EntryKind.REBUY, REGISTERED, level=7, stack=0)
    assert isinstance(refused.value, RuleViolation) and isinstance(refused.value, ValueError)
    assert refused.value.template == "Rebuys ended at level {level}"
    assert refused.value.params == {"level": 6}


# -- buy-in and late registration -------------------------------------------------------


def test_buy_in_before_play_and_through_the_late_registration_level_and_its_break():
    for moment in ({"level": 0}, {"level": 1}, {"level": 6}, {"level": 6, "on_break": True}):
        sale = purchase(rules(), EntryKind.BUY_IN, PlayerEntries(), **moment)
        assert sale == Purchase(EntryKind.BUY_IN, BuyIn(10_000, 1_000), 20_000)


def test_late_registration_closed_after_its_level():
    assert refusal(rules(), EntryKind.BUY_IN, PlayerEntries(), level=7) == (
        "Late registration closed at the end of level 6")


def test_without_late_registration_the_desk_closes_when_play_begins():
    no_late = rules(late_registration_level=0, re_entry=None)
    assert can_purchase(no_late, EntryKind.BUY_IN, PlayerEntries(), level=0)
    assert refusal(no_late, EntryKind.BUY_IN, PlayerEntries(), level=1) == (
        "Registration closed when play began")


def test_a_registered_player_cannot_buy_in_again():
    assert refusal(rules(), EntryKind.BUY_IN, REGISTERED, level=2) == (
        "This player is already registered: a busted player re-enters instead")


# -- re-entry -----------------------------------------------------------------------------


def test_busted_player_re_enters_for_the_buy_in_and_a_starting_stack():
    sale = purchase(rules(), EntryKind.RE_ENTRY, REGISTERED, level=4, busted=True)
    assert sale == Purchase(EntryKind.RE_ENTRY, BuyIn(10_000, 1_000), 20_000)
    assert REGISTERED.after(sale) == PlayerEntries(entries=2)


def test_event_without_re_entry_refuses_it():
    assert refusal(rules(re_entry=None), EntryKind.RE_ENTRY, REGISTERED, level=2, busted=True) == (
        "This event has no re-entry")


def test_re_entry_ends_with_late_registration_unless_set_earlier():
    assert refusal(rules(), EntryKind.RE_ENTRY, REGISTERED, level=7, busted=True) == (
        "Re-entry ended at level 6")
    earlier = rules(re_entry=ReEntry(until_level=4))
    assert can_purchase(earlier, EntryKind.RE_ENTRY, REGISTERED, level=4, on_break=True, busted=True)
    assert refusal(earlier, EntryKind.RE_ENTRY, REGISTERED, level=5, busted=True) == (
        "Re-entry ended at level 4")


def test_re_entries_are_counted_against_the_limit():
    player = PlayerEntries(entries=3)  # the buy-in and two re-entries
    assert refusal(rules(), EntryKind.RE_ENTRY, player, level=3, busted=True) == (
        "No re-entries left: 2 of 2 used")
    unlimited = rules(re_entry=ReEntry())
    assert can_purchase(unlimited, EntryKind.RE_ENTRY, PlayerEntries(entries=9), level=3, busted=True)


def test_only_a_busted_player_re_enters():
    assert refusal(rules(), EntryKind.RE_ENTRY, REGISTERED, level=3, busted=False) == (
        "Only a busted player can re-enter: this player is still in")


def test_unregistered_player_cannot_re_enter_rebuy_or_add_on():
    for kind in (EntryKind.RE_ENTRY, EntryKind.REBUY, EntryKind.ADD_ON):
        assert refusal(rules(), kind, PlayerEntries(), level=6, on_break=True, stack=0,
                       busted=True) == "This player is not registered: take the buy-in first"


# -- rebuys -------------------------------------------------------------------------------


def test_rebuy_at_or_below_the_starting_stack_during_the_rebuy_period():
    for stack in (0, 7_500, 20_000):
        sale = purchase(rules(), EntryKind.REBUY, REGISTERED, level=6, stack=stack)
        assert sale == Purchase(EntryKind.REBUY, BuyIn(10_000, 500), 20_000)
    assert can_purchase(rules(), EntryKind.REBUY, REGISTERED, level=6, on_break=True, stack=100)


def test_rebuys_ended_at_level_6():
    assert refusal(rules(), EntryKind.REBUY, REGISTERED, level=7, stack=0) == "Rebuys ended at level 6"


def test_rebuy_refused_above_the_stack_limit():
    assert refusal(rules(), EntryKind.REBUY, REGISTERED, level=3, stack=20_001) == (
        "A rebuy needs a stack at or below 20,000 chips; this player has 20,001")
    lower = rules(rebuy=Rebuy(BuyIn(10_000), chips=20_000, until_level=6, stack_limit=5_000))
    assert refusal(lower, EntryKind.REBUY, REGISTERED, level=3, stack=5_001) == (
        "A rebuy needs a stack at or below 5,000 chips; this player has 5,001")


def test_rebuys_are_counted_against_their_limit():
    capped = rules(rebuy=Rebuy(BuyIn(10_000), chips=20_000, until_level=6, max_rebuys=3))
    assert can_purchase(capped, EntryKind.REBUY, PlayerEntries(1, rebuys=2), level=2, stack=0)
    assert refusal(capped, EntryKind.REBUY, PlayerEntries(1, rebuys=3), level=2, stack=0) == (
        "No rebuys left: 3 of 3 used")


def test_rebuy_needs_the_stack_and_an_event_with_rebuys():
    assert refusal(rules(), EntryKind.REBUY, REGISTERED, level=2) == (
        "Count the player's chips first: a rebuy needs the stack")
    assert refusal(rules(rebuy=None), EntryKind.REBUY, REGISTERED, level=2, stack=0) == (
        "This event has no rebuys")


@given(level=st.integers(0, 20), stack=st.integers(0, 60_000), on_break=st.booleans())
def test_rebuy_allowed_exactly_through_level_6_at_or_below_the_starting_stack(level, stack, on_break):
    allowed = can_purchase(rules(), EntryKind.REBUY, REGISTERED, level=level, on_break=on_break,
                           stack=stack)
    assert allowed == (level <= 6 and stack <= 20_000)


# -- add-on -------------------------------------------------------------------------------


def test_add_on_at_its_break():
    sale = purchase(rules(), EntryKind.ADD_ON, REGISTERED, level=6, on_break=True, stack=45_000)
    assert sale == Purchase(EntryKind.ADD_ON, BuyIn(5_000), 30_000)
    assert REGISTERED.after(sale).add_ons == 1


def test_add_on_refused_before_and_after_its_break():
    assert refusal(rules(), EntryKind.ADD_ON, REGISTERED, level=6) == (
        "The add-on is offered only at the break after level 6")
    assert refusal(rules(), EntryKind.ADD_ON, REGISTERED, level=4, on_break=True) == (
        "The add-on is offered only at the break after level 6")
    assert refusal(rules(), EntryKind.ADD_ON, REGISTERED, level=7) == (
        "The add-on was offered at the break after level 6 and is over")


def test_add_on_only_once():
    assert refusal(rules(), EntryKind.ADD_ON, PlayerEntries(1, add_ons=1), level=6, on_break=True) == (
        "This player has already taken the add-on")


def test_add_on_refused_to_a_busted_player_and_in_an_event_without_one():
    assert refusal(rules(), EntryKind.ADD_ON, REGISTERED, level=6, on_break=True, busted=True) == (
        "A busted player cannot take the add-on")
    assert refusal(rules(add_on=None), EntryKind.ADD_ON, REGISTERED, level=6, on_break=True) == (
        "This event has no add-on")


# -- the desk's totals --------------------------------------------------------------------


def test_ten_buy_ins_and_two_rebuys_give_the_pool_and_the_chips():
    event = rules()
    sales = [purchase(event, EntryKind.BUY_IN, PlayerEntries(), level=0) for _ in range(10)]
    sales += [purchase(event, EntryKind.REBUY, REGISTERED, level=2, stack=0) for _ in range(2)]
    pool = pool_from_payments(sale.price for sale in sales)
    assert pool.total == 10 * 10_000 + 2 * 10_000
    assert pool.fees == 10 * 1_000 + 2 * 500
    chips = chips_in_play(event, entries=10, rebuys=2)
    assert chips == sum(sale.chips for sale in sales) == 240_000
    assert average_stack(chips, 9) == 26_666


def test_chips_in_play_with_add_ons_and_refused_when_the_event_has_none():
    assert chips_in_play(rules(), entries=3, rebuys=1, add_ons=2) == 3 * 20_000 + 20_000 + 60_000
    with pytest.raises(EntryRefused):
        chips_in_play(rules(add_on=None), entries=3, add_ons=1)


@pytest.mark.parametrize("make", [
    lambda: rules(starting_stack=0),
    lambda: rules(late_registration_level=-1),
    lambda: ReEntry(max_re_entries=0),
    lambda: Rebuy(BuyIn(100), chips=0, until_level=3),
    lambda: Rebuy(BuyIn(100), chips=100, until_level=0),
    lambda: Rebuy(BuyIn(100), chips=100, until_level=3, stack_limit=-1),
    lambda: AddOn(BuyIn(100), chips=100, at_break=0),
    lambda: average_stack(100, 0),
])
def test_settings_that_make_no_sense_are_refused(make):
    with pytest.raises(EntrySettingsError) as refused:
        make()
    assert refused.value.message.startswith("The ")
