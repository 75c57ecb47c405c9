-- (b) for PostgreSQL: the statements TresorLedger runs for one transfer with an idempotency
-- key (Sources/TresorLedger/Ledger+Commit.swift), as a pgbench script. Lower account id first,
-- as the ledger locks rows in id order.
\set n :last - :first + 1
\set a random(:first, :last)
\set b :first + ((:a - :first + random(1, :n - 1)) % :n)
\set lo least(:a, :b)
\set hi greatest(:a, :b)
\set r random(1, 2000000000)
\set amount 100
\set debit -100
BEGIN;
INSERT INTO idempotency_keys (scope, idem_key, request_hash, transaction_id, created_at_ms) VALUES ('bench', 'p-' || :client_id || '-' || :r || '-' || :a, 'h', NULL, 0) ON CONFLICT DO NOTHING RETURNING scope;
UPDATE accounts SET booked_minor = booked_minor + :debit WHERE id = :lo AND currency = 'CHF' AND (:debit > 0 OR enforce_limit = 0 OR booked_minor + :debit - held_minor >= -overdraft_limit_minor) RETURNING booked_minor AS bal_from \gset
UPDATE accounts SET booked_minor = booked_minor + :amount WHERE id = :hi AND currency = 'CHF' AND (:amount > 0 OR enforce_limit = 0 OR booked_minor + :amount - held_minor >= -overdraft_limit_minor) RETURNING booked_minor AS bal_to \gset
INSERT INTO transactions (kind, booking_date, value_date, created_at_ms) VALUES ('transfer', :today, :today, 0) RETURNING id AS tx \gset
INSERT INTO postings (transaction_id, account_id, currency, amount_minor, balance_after_minor, booking_date, value_date, counterparty, remittance) VALUES (:tx, :lo, 'CHF', :debit, :bal_from, :today, :today, 'Bench', 'bench'), (:tx, :hi, 'CHF', :amount, :bal_to, :today, :today, 'Bench', 'bench');
UPDATE idempotency_keys SET transaction_id = :tx WHERE scope = 'bench' AND idem_key = 'p-' || :client_id || '-' || :r || '-' || :a;
END;
