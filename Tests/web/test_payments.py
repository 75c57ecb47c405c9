"""Paying from the phone in the web app: QR-bill with signature, own-account transfer, errors at
the field. Run by scripts/web-test.sh against `tresor serve --demo`."""
import os
import re
import unittest
from datetime import date, timedelta

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from webbase import BASE, BrowserTest

QR_BILL = "\n".join([
    "SPC", "0200", "1", "CH4431999123000889012", "S", "Robert Schneider AG", "Rue du Lac", "1268", "2501", "Biel", "CH",
    "", "", "", "", "", "", "", "199.95", "CHF", "S", "Pia-Maria Rutschmann-Schnyder", "Grosse Marktgasse", "28", "9400",
    "Rorschach", "CH", "QRR", "210000000003139471430009017", "Order dated 18.06.2020", "EPD",
])


def tan(contract, position):
    """The code at `position` of the demo TAN list the server wrote for `contract`."""
    text = open(os.environ["TRESOR_WEB_TANS"]).read()
    block = text.split(contract, 1)[1].split("\n\n", 1)[0]
    return re.search(rf"(?<!\d){position}: (\d{{6}})", block).group(1)


def minor(text):
    """`CHF 1’234.50` → 123450."""
    digits = re.sub(r"[^\d\-−]", "", text).replace("−", "-")
    return int(digits)


class PaymentsTest(BrowserTest):
    def submit(self):
        self.pay()

    def test_qr_bill_pasted_signed_pending_then_deleted(self):
        self.login()
        self.browser.get(BASE + "/pay")
        self.browser.find_element(By.CSS_SELECTOR, "a[data-type=qrbill]").click()
        self.browser.find_element(By.ID, "qrbill_payload").send_keys(QR_BILL)
        future = date.today() + timedelta(days=10)
        self.browser.execute_script("document.getElementById('execution_date').value = arguments[0]", future.isoformat())
        self.submit()
        status = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]")
        self.assertEqual(status.get_attribute("data-status"), "needs_signature")
        self.assert_fits_and_accessible()
        position = self.browser.find_element(By.CSS_SELECTOR, "[data-testid=tan-position] strong").text
        self.browser.find_element(By.ID, "code").send_keys(tan("10000012", position))
        self.browser.find_element(By.CSS_SELECTOR, "form[action$='/sign'] button").click()
        self.wait_until(
            lambda b: b.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status") == "pending")
        payment_id = self.browser.current_url.rstrip("/").split("/")[-1]
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=payee]").text, "Robert Schneider AG")
        # The reference in the blocks the bill prints it in, to compare with the paper.
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=reference]").text, "21 00000 00003 13947 14300 09017")
        # Pending, it can be changed or deleted from its own page too.
        self.assertTrue(self.browser.find_element(By.ID, "edit-payment").get_attribute("href").endswith(f"/payments/{payment_id}/edit"))
        self.assertTrue(self.browser.find_element(By.ID, "delete-payment").is_displayed())

        self.browser.get(BASE + "/payments")
        row = self.browser.find_element(By.CSS_SELECTOR, f"#pending li[data-id='{payment_id}']")
        row.find_element(By.CSS_SELECTOR, "form button").click()
        self.wait_until(lambda b: not b.find_elements(By.CSS_SELECTOR, f"#pending li[data-id='{payment_id}']"))
        self.assertTrue(self.browser.find_elements(By.CSS_SELECTOR, f"#processed li[data-id='{payment_id}']"))
        # Deleted, its page offers neither any more.
        self.browser.get(BASE + f"/payments/{payment_id}")
        self.assertFalse(self.browser.find_elements(By.ID, "edit-payment") + self.browser.find_elements(By.ID, "delete-payment"))

    def balances(self):
        self.browser.get(BASE + "/accounts")
        cards = self.browser.find_elements(By.CSS_SELECTOR, ".card.account")
        return {c.find_element(By.TAG_NAME, "h2").text.split("\n")[0]: minor(c.find_element(By.CSS_SELECTOR, "[data-testid=booked]").text)
                for c in cards}

    def test_own_account_transfer_moves_both_balances(self):
        self.login()
        self.assertEqual(self.transfer_between_own_accounts("25.00"), 2500)

    def test_amounts_are_read_as_a_phone_keypad_types_them(self):
        """A phone set to French, German or Italian has a decimal comma on its keypad, and a Swiss
        customer writes thousands with an apostrophe: the live check and the bank take both (and
        still flag what is no amount)."""
        self.login()
        for typed, minor in [("12,50", 1250), ("1’025,5", 102550), ("1 000.05", 100005)]:
            self.assertEqual(self.transfer_between_own_accounts(typed), minor, typed)
        self.browser.get(BASE + "/pay/internal")
        amount = self.browser.find_element(By.ID, "amount")
        for typed, flagged in [("12,5", "false"), ("12,345,67", "true"), ("1’23", "true"), ("1.234,50", "false")]:
            amount.clear()
            amount.send_keys(typed)
            self.assertEqual(amount.get_attribute("aria-invalid"), flagged, typed)
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "confirm") or b.find_elements(By.ID, "form-error"))
        self.assertFalse(self.browser.find_elements(By.ID, "form-error"), "1.234,50 is taken as typed")
        self.assertIn("1’234.50", self.browser.find_element(By.TAG_NAME, "main").text, "the review shows the amount read")

    def transfer_between_own_accounts(self, typed):
        """Moves `typed` from the first account to another CHF one; returns the minor units each
        balance moved by (asserted to be the same both ways)."""
        before = self.balances()
        self.browser.get(BASE + "/pay/internal")
        options = Select(self.browser.find_element(By.ID, "debtor_account")).options
        source = options[0].text.split(" · ")[0]
        target_option = next(o for o in Select(self.browser.find_element(By.ID, "creditor_account")).options
                             if "CHF" in o.text and o.text.split(" · ")[0] != source)
        target = target_option.text.split(" · ")[0]
        Select(self.browser.find_element(By.ID, "creditor_account")).select_by_visible_text(target_option.text)
        self.browser.find_element(By.ID, "amount").send_keys(typed)
        self.submit()
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status"), "executed", typed)
        after = self.balances()
        source_key = next(k for k in before if k.startswith(source))
        target_key = next(k for k in before if k.startswith(target))
        self.assertEqual(after[target_key] - before[target_key], before[source_key] - after[source_key], typed)
        return after[target_key] - before[target_key]

    def fill_iban_form(self, name, iban):
        """Opens the IBAN pay form and types a payee in Zürich with `iban` and CHF 10.00."""
        self.browser.get(BASE + "/pay/iban")
        for field, value in [("creditor_name", name), ("creditor_iban", iban), ("creditor_postal_code", "8000"),
                             ("creditor_town", "Zürich"), ("amount", "10.00")]:
            self.browser.find_element(By.ID, field).send_keys(value)

    def test_wrong_iban_shows_the_error_at_the_field(self):
        self.login()
        self.fill_iban_form("Müller AG", "CH93 0076 2011 6238 5295 8")
        iban = self.browser.find_element(By.ID, "creditor_iban")
        self.assertEqual(iban.get_attribute("aria-invalid"), "true", "live validation flags the checksum as you type")
        self.submit()
        self.assertEqual(self.browser.find_element(By.ID, "form-error").get_attribute("data-field"), "creditor_iban")
        self.assertTrue(self.browser.find_element(By.ID, "form-error").text.startswith("Bitte korrigieren:"))
        self.assertTrue(self.browser.find_element(By.ID, "creditor_iban-error").text)
        self.assertEqual(self.browser.find_element(By.ID, "creditor_iban").get_attribute("aria-invalid"), "true")
        self.assertEqual(self.browser.find_element(By.ID, "creditor_name").get_attribute("value"), "Müller AG", "typed values stay")
        self.assert_fits_and_accessible()

    def test_an_iban_typed_in_groups_goes_to_the_review_which_shows_it(self):
        """The form groups an IBAN by four as it is typed; that goes straight to the review page,
        which shows the account the money goes to under the payee's name."""
        self.login()
        self.fill_iban_form("M\u00fcller Gartenbau AG", "ch56 0483 5012 3456 7800 9")
        self.assertEqual(self.browser.find_element(By.ID, "creditor_iban").get_attribute("value"), "CH56 0483 5012 3456 7800 9")
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "confirm"))
        self.assertEqual(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=review-iban]").text, "CH56 0483 5012 3456 7800 9")
        self.assert_fits_and_accessible()

    def test_an_iban_written_another_way_is_written_out_not_called_invalid(self):
        """An IBAN in small letters that the page's script did not see (pasted where scripts are
        off): the server writes it out and asks to check it, without calling it invalid."""
        self.login()
        self.fill_iban_form("M\u00fcller Gartenbau AG", "CH5604835012345678009")
        self.browser.execute_script("document.getElementById('creditor_iban').value = 'ch5604835012345678009'")
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        said = self.wait_until(lambda b: b.find_element(By.ID, "creditor_iban-error")).text
        self.assertIn("Grossbuchstaben", said)
        self.assertNotIn("ung\u00fcltig", said)
        self.assertTrue(self.browser.find_element(By.ID, "form-error").text.startswith("Bitte pr\u00fcfen:"), "to check, not to correct")
        self.assertEqual(self.browser.find_element(By.ID, "creditor_iban").get_attribute("value"), "CH5604835012345678009")
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        self.wait_until(lambda b: b.find_elements(By.ID, "confirm"))

    def test_a_character_no_bank_file_carries_is_named_at_its_field(self):
        """A payment to another bank carries Latin text: a Greek letter in the message is refused
        at the message field, which offers the text as it would go out; curly quotes typed by a
        phone go through written plainly."""
        self.login()
        self.fill_iban_form("Anna’s Laden", "CH5604835012345678009")
        self.browser.find_element(By.ID, "message").send_keys("Miete März Ω")
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        error = self.wait_until(lambda b: b.find_element(By.ID, "form-error"))
        self.assertEqual(error.get_attribute("data-field"), "message")
        self.assertTrue(error.text.startswith("Bitte prüfen:"), error.text)
        self.assertIn("lateinische", self.browser.find_element(By.ID, "message-error").text)
        self.assertEqual(self.browser.find_element(By.ID, "message").get_attribute("value"), "Miete März .")
        self.assert_fits_and_accessible()
        self.browser.find_element(By.CSS_SELECTOR, "main form button[type=submit]").click()
        confirm = self.wait_until(lambda b: b.find_element(By.ID, "confirm"))
        main = self.browser.find_element(By.TAG_NAME, "main").text
        self.assertIn("Anna's Laden", main)
        self.assertIn("Miete März .", main)
        confirm.click()
        self.wait_until(lambda b: "/payments/" in b.current_url)

    def top_up_hint(self):
        """The amounts the top-up form's hint lists, by operator name: {"Salt": ["10", "20", "25", …]}."""
        hint = self.browser.find_element(By.ID, "amount-help").text
        groups = {}
        for names, amounts in re.findall(r"([A-Za-z][A-Za-z, ]*?) ((?:\d+(?:\.\d\d)?, )*\d+(?:\.\d\d)?) CHF", hint.split(":", 1)[1]):
            for name in names.split(", "):
                groups[name.strip()] = amounts.split(", ")
        return groups

    def test_top_up_amounts_are_tapped_from_the_operators_chips(self):
        """Under the amount, the chosen operator's amounts to tap: they change with the operator,
        agree with the hint, and a tapped one fills the field and is paid."""
        self.login()
        self.browser.get(BASE + "/pay/topup")
        operator = Select(self.browser.find_element(By.ID, "topup_operator"))
        chips = lambda: [c for c in self.browser.find_elements(By.CSS_SELECTOR, ".amount-chips button") if c.is_displayed()]
        shown = {}
        for option in operator.options:
            operator.select_by_value(option.get_attribute("value"))
            shown[option.text] = [c.get_attribute("data-value") for c in chips()]
        self.assertEqual({name: [str(int(float(v))) for v in values] for name, values in shown.items()}, self.top_up_hint())
        # An amount only one operator sells: its chip shows for that operator alone.
        name, amount = next((n, a) for n, values in shown.items() for a in values if sum(a in v for v in shown.values()) == 1)
        operator.select_by_visible_text(name)
        chip = next(c for c in chips() if c.get_attribute("data-value") == amount)
        chip.click()
        self.assertEqual(self.browser.find_element(By.ID, "amount").get_attribute("value"), amount)
        self.assertEqual(chip.get_attribute("aria-pressed"), "true")
        self.assert_fits_and_accessible()
        self.browser.find_element(By.ID, "topup_phone").send_keys("+41791234567")
        self.submit()
        self.assertIn("/payments/", self.browser.current_url, f"{name} {amount}: paid")
        self.assertEqual(minor(self.browser.find_element(By.CSS_SELECTOR, "[data-testid=amount]").text), int(float(amount) * 100))

    def test_top_up_lists_the_amounts_each_operator_sells(self):
        """The hint under the amount names each operator with its amounts; each listed amount is
        one the server takes, and one not listed is refused at the field."""
        self.login()
        self.browser.get(BASE + "/pay/topup")
        groups = self.top_up_hint()
        operators = {o.text: o.get_attribute("value") for o in Select(self.browser.find_element(By.ID, "topup_operator")).options}
        self.assertEqual(set(groups), set(operators), groups)
        # The amounts that tell operators apart: sold by this one and not by all, and sold by
        # another but not by this one.
        everyone = set.intersection(*map(set, groups.values()))
        offered = set().union(*map(set, groups.values()))
        self.assertNotIn("15", offered)
        for name, amounts in groups.items():
            cases = [(a, True) for a in amounts if a not in everyone] or [(amounts[-1], True)]
            for amount, accepted in cases + [(a, False) for a in sorted(offered - set(amounts))] + [("15", False)]:
                self.browser.get(BASE + "/pay/topup")
                Select(self.browser.find_element(By.ID, "topup_operator")).select_by_value(operators[name])
                self.browser.find_element(By.ID, "topup_phone").send_keys("+41791234567")
                self.browser.find_element(By.ID, "amount").send_keys(amount)
                self.submit()
                if accepted:
                    self.assertFalse(self.browser.find_elements(By.ID, "form-error"), f"{name} {amount}")
                    self.assertIn("/payments/", self.browser.current_url, f"{name} {amount}: paid")
                else:
                    self.assertEqual(self.browser.find_element(By.ID, "form-error").get_attribute("data-field"), "amount", f"{name} {amount}")
                    self.assertIn(name, self.browser.find_element(By.ID, "amount-help").text)

    def test_favourites_are_pinned_and_sorted_and_the_overview_follows(self):
        """Claire sorts her favourites: two pinned, the second moved up; the overview shows them
        first in her order, then what she uses most; unpinned, one goes back among the others."""
        self.login("10000033")
        self.click_and_wait("#favorites-edit", "/favorites")
        self.assertIn("6", self.browser.find_element(By.ID, "favorites-explained").text)
        pinned = lambda: [li.get_attribute("data-item") for li in self.browser.find_elements(By.CSS_SELECTOR, "#favorites-pinned li[data-item]")]
        others = lambda: [li.get_attribute("data-item") for li in self.browser.find_elements(By.CSS_SELECTOR, "#favorites-others li[data-item]")]
        for item in pinned():  # a rerun starts from nothing pinned
            self.change(item, "unpin")
        self.assertTrue(self.browser.find_elements(By.ID, "favorites-none"))
        self.assertTrue({"type:topup", "type:esr", "type:iban"} <= set(others()), "every payment type can be pinned")
        self.change("type:topup", "pin")
        self.change("type:esr", "pin")
        self.assertEqual(["type:topup", "type:esr"], pinned())
        self.assertNotIn("type:esr", others())
        self.change("type:esr", "up")
        self.assertEqual(["type:esr", "type:topup"], pinned())
        first = self.browser.find_element(By.CSS_SELECTOR, "#favorites-pinned li:first-child")
        self.assertFalse(first.find_elements(By.CSS_SELECTOR, "button[value=up]"), "the first cannot move up")
        self.assert_fits_and_accessible()
        self.browser.get(BASE + "/home")
        tiles = [t.text for t in self.browser.find_elements(By.CSS_SELECTOR, "ul.favorites .fav")]
        self.assertEqual(["Bulletin de versement", "Recharge mobile"], tiles[:2], tiles)
        self.assertLessEqual(len(tiles), 6)
        self.browser.get(BASE + "/favorites")
        self.change("type:esr", "unpin")
        self.assertEqual(["type:topup"], pinned())
        self.assertIn("type:esr", others())
        # Pinned until six: then the screen says so and offers no more pins.
        while len(pinned()) < 6 and others():
            self.change(others()[0], "pin")
        self.assertEqual(6, len(pinned()), "five payment types and her templates to choose from")
        self.assertTrue(self.browser.find_elements(By.ID, "favorites-full"))
        self.assertFalse(self.browser.find_elements(By.CSS_SELECTOR, "#favorites-others button[value=pin]"))
        for item in pinned():
            self.change(item, "unpin")

    def change(self, item, action):
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.CSS_SELECTOR, f"li[data-item='{item}'] button[value={action}]").click()
        self.wait_until_left(old_page)

    def test_default_account_and_debit_advice_are_set_in_settings(self):
        """Luca chooses his savings account as the one to pay from: the pay forms start from it
        (a transfer then offers his private account to credit). He asks for a debit advice from
        CHF 1: a transfer from his private account brings one to his inbox, naming the account."""
        self.login("10000028")
        try:
            self.choose_and_use_payment_settings()
        finally:
            self.reset_payment_settings()

    def choose_and_use_payment_settings(self):
        self.browser.get(BASE + "/settings")
        select = Select(self.browser.find_element(By.ID, "default_debit_account"))
        savings = next(o.text for o in select.options if o.text.startswith("Conto risparmio"))
        select.select_by_visible_text(savings)
        self.browser.find_element(By.ID, "debit_advice").click()
        advice_from = self.browser.find_element(By.ID, "debit_advice_from")
        advice_from.clear()
        advice_from.send_keys("1,00")
        self.save_payment_settings()
        self.assertEqual(savings, Select(self.browser.find_element(By.ID, "default_debit_account")).first_selected_option.text)
        self.assertTrue(self.browser.find_element(By.ID, "debit_advice").is_selected())
        self.assert_fits_and_accessible()

        self.browser.get(BASE + "/pay/internal")
        self.assertTrue(Select(self.browser.find_element(By.ID, "debtor_account")).first_selected_option.text.startswith("Conto risparmio"))
        self.assertTrue(Select(self.browser.find_element(By.ID, "creditor_account")).first_selected_option.text.startswith("Conto privato"))
        self.browser.get(BASE + "/pay/iban")
        self.assertTrue(Select(self.browser.find_element(By.ID, "debtor_account")).first_selected_option.text.startswith("Conto risparmio"))

        self.browser.get(BASE + "/pay/internal")
        Select(self.browser.find_element(By.ID, "debtor_account")).select_by_index(
            next(i for i, o in enumerate(Select(self.browser.find_element(By.ID, "debtor_account")).options) if o.text.startswith("Conto privato")))
        Select(self.browser.find_element(By.ID, "creditor_account")).select_by_index(
            next(i for i, o in enumerate(Select(self.browser.find_element(By.ID, "creditor_account")).options) if o.text.startswith("Conto risparmio")))
        self.browser.find_element(By.ID, "amount").send_keys("7.35")
        self.submit()
        self.assertEqual("executed", self.browser.find_element(By.CSS_SELECTOR, "[data-testid=status]").get_attribute("data-status"))
        self.browser.get(BASE + "/inbox?category=payments")
        first = self.browser.find_element(By.CSS_SELECTOR, "#inbox li.card")
        self.assertIn("Avviso di addebito", first.text)
        self.assertIn("Conto privato", first.text)
        self.assertIn("7.35", first.text)

        # A wrong amount is named at its field, and nothing changes.
        self.browser.get(BASE + "/settings")
        advice_from = self.browser.find_element(By.ID, "debit_advice_from")
        advice_from.clear()
        advice_from.send_keys("-3")
        self.save_payment_settings()
        self.assertTrue(self.browser.find_element(By.ID, "debit-error").text)
        self.assertEqual("true", self.browser.find_element(By.ID, "debit_advice_from").get_attribute("aria-invalid"))
        self.assert_fits_and_accessible()

    def save_payment_settings(self):
        old_page = self.browser.find_element(By.TAG_NAME, "html")
        self.browser.find_element(By.ID, "save-payment-settings").click()
        self.wait_until_left(old_page)

    def reset_payment_settings(self):
        self.browser.get(BASE + "/settings")
        Select(self.browser.find_element(By.ID, "default_debit_account")).select_by_value("")
        if self.browser.find_element(By.ID, "debit_advice").is_selected():
            self.browser.find_element(By.ID, "debit_advice").click()
        self.save_payment_settings()

    def test_pay_pages_fit_and_are_accessible(self):
        self.login()
        for path in ["/pay", "/pay/qrbill", "/pay/iban", "/pay/internal", "/pay/esr", "/pay/topup", "/payments"]:
            self.browser.get(BASE + path)
            self.assert_fits_and_accessible()


if __name__ == "__main__":
    unittest.main()
