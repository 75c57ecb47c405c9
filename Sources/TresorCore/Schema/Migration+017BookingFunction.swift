extension Migration {
    /// PostgreSQL: `tresor_book_set`, a set of bookings (distinct idempotency keys, no hold
    /// released) written by one function call: claim the keys in key order, lock the accounts in
    /// id order, decide each booking in batch order against the locked balances with the checks
    /// and in the order of `BatchWriter.decide` (account, currency, blocked debits, overdraft
    /// limit with holds, overflow), then write balances, transactions, postings and keys set-wise.
    ///
    /// why in the database: deciding in Swift needs the locked balances first, so a batch was
    /// five round trips of statements the server parsed and planned each time (a booking alone
    /// at 0.38 of pgbench); the function is one round trip whose plans the server keeps per
    /// connection. `LedgerBatchTests` holds it to the outcomes of the one-by-one path. why
    /// generic plans: its statements take arrays, for which the server otherwise plans again on
    /// every call (measured: 780 µs a call for one booking, 430 µs with the plans kept); each is a
    /// key lookup or an insert, so one plan fits every batch. why no sequential scan: a generic
    /// plan made while `accounts` is small reads the whole table to lock a few rows, and the
    /// table's dead row versions (every booking updates balances) made that 2 ms a batch under load.
    ///
    /// Arrays come in per booking (`b_…`; no key: NULL scope) and per line (`l_…`, a booking's
    /// lines from `b_first` for `b_count`). One row per booking comes back: `created` (its
    /// transaction and each line's balance after), `replay` (its key was taken before), or the
    /// refusal and the account at fault. A refused booking's claimed key is removed.
    ///
    /// And the audit log's head row from the start (it was written with the first entry), so
    /// that appenders on PostgreSQL always find a row to lock (`AuditLog.chainEnd`).
    static let m017BookingFunction = Migration(
        version: 17, name: "booking function",
        statements: [
            """
            INSERT INTO audit_head (id, last_id, last_hash) \
            SELECT 1, 0, '0000000000000000000000000000000000000000000000000000000000000000' WHERE NOT EXISTS (SELECT 1 FROM audit_head)
            """
        ],
        postgresStatements: [
            """
            CREATE OR REPLACE FUNCTION tresor_book_set(b_kind text[], b_booking_date text[], b_value_date text[], b_now bigint[], \
            b_scope text[], b_key text[], b_hash text[], b_first int[], b_count int[], l_account bigint[], l_currency text[], \
            l_amount bigint[], l_counterparty text[], l_remittance text[]) \
            RETURNS TABLE (booking int, outcome text, account bigint, transaction_id bigint, balances bigint[]) \
            LANGUAGE plpgsql SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $body$
            DECLARE
                n int := coalesce(array_length(b_kind, 1), 0);
                claimed text[];
                ids bigint[];
                state text[] := array_fill(NULL::text, ARRAY[n]);
                fault bigint[] := array_fill(NULL::bigint, ARRAY[n]);
                tx_of bigint[] := array_fill(NULL::bigint, ARRAY[n]);
                a_id bigint[] := '{}';
                a_currency text[] := '{}';
                a_enforce int[] := '{}';
                a_limit bigint[] := '{}';
                a_booked bigint[] := '{}';
                a_held bigint[] := '{}';
                a_blocked int[] := '{}';
                a_changed boolean[] := '{}';
                trial bigint[];
                touched boolean[];
                l_balance bigint[] := array_fill(NULL::bigint, ARRAY[coalesce(array_length(l_account, 1), 0)]);
                accepted int[] := '{}';
                refused int[] := '{}';
                tx bigint[];
                p_tx bigint[] := '{}';
                p_line int[] := '{}';
                p_booking int[] := '{}';
                r record;
                i int;
                j int;
                k int;
                nxt numeric;
            BEGIN
                WITH ins AS (
                    INSERT INTO idempotency_keys (scope, idem_key, request_hash, transaction_id, created_at_ms)
                    SELECT b_scope[g], b_key[g], b_hash[g], NULL, b_now[g] FROM generate_series(1, n) AS g
                    WHERE b_scope[g] IS NOT NULL ORDER BY b_scope[g] COLLATE "C", b_key[g] COLLATE "C"
                    ON CONFLICT DO NOTHING RETURNING scope, idem_key)
                SELECT coalesce(array_agg(ins.scope || chr(31) || ins.idem_key), '{}') INTO claimed FROM ins;
                FOR i IN 1..n LOOP
                    IF b_scope[i] IS NOT NULL AND NOT (b_scope[i] || chr(31) || b_key[i]) = ANY (claimed) THEN
                        state[i] := 'replay';
                    END IF;
                END LOOP;

                SELECT coalesce(array_agg(DISTINCT l_account[g]), '{}') INTO ids FROM generate_series(1, n) AS i2,
                    generate_series(b_first[i2], b_first[i2] + b_count[i2] - 1) AS g WHERE state[i2] IS NULL;
                FOR r IN
                    SELECT a.id, a.currency, a.enforce_limit, a.overdraft_limit_minor, a.booked_minor, a.held_minor, a.debits_blocked
                    FROM accounts AS a WHERE a.id = ANY (ids) ORDER BY a.id FOR NO KEY UPDATE
                LOOP
                    a_id := a_id || r.id;
                    a_currency := a_currency || r.currency;
                    a_enforce := a_enforce || r.enforce_limit;
                    a_limit := a_limit || r.overdraft_limit_minor;
                    a_booked := a_booked || r.booked_minor;
                    a_held := a_held || r.held_minor;
                    a_blocked := a_blocked || r.debits_blocked;
                    a_changed := a_changed || false;
                END LOOP;

                FOR i IN 1..n LOOP
                    CONTINUE WHEN state[i] IS NOT NULL;
                    trial := a_booked;
                    touched := a_changed;
                    FOR j IN SELECT g FROM generate_series(b_first[i], b_first[i] + b_count[i] - 1) AS g ORDER BY l_account[g], g LOOP
                        k := array_position(a_id, l_account[j]);
                        IF k IS NULL THEN
                            state[i] := 'account_not_found';
                        ELSIF a_currency[k] <> l_currency[j] THEN
                            state[i] := 'currency_mismatch';
                        ELSE
                            nxt := trial[k]::numeric + l_amount[j];
                            IF l_amount[j] < 0 THEN
                                IF a_blocked[k] <> 0 THEN
                                    state[i] := 'debits_blocked';
                                ELSIF nxt < -9223372036854775808 OR (a_enforce[k] <> 0 AND nxt - a_held[k] < -a_limit[k]) THEN
                                    state[i] := 'insufficient_funds';
                                END IF;
                            ELSIF nxt > 9223372036854775807 THEN
                                state[i] := 'amount_too_large';
                            END IF;
                        END IF;
                        IF state[i] IS NOT NULL THEN
                            fault[i] := l_account[j];
                            EXIT;
                        END IF;
                        trial[k] := nxt;
                        touched[k] := true;
                        l_balance[j] := nxt;
                    END LOOP;
                    IF state[i] IS NULL THEN
                        state[i] := 'created';
                        a_booked := trial;
                        a_changed := touched;
                        accepted := accepted || i;
                    ELSIF b_scope[i] IS NOT NULL THEN
                        refused := refused || i;
                    END IF;
                END LOOP;

                -- why row by row: each statement is a primary-key lookup whose plan does not depend
                -- on how many rows the tables hold or how large the batch is.
                FOREACH i IN ARRAY refused LOOP
                    DELETE FROM idempotency_keys AS ik WHERE ik.scope = b_scope[i] AND ik.idem_key = b_key[i];
                END LOOP;
                IF cardinality(accepted) > 0 THEN
                    FOR k IN 1..cardinality(a_id) LOOP
                        IF a_changed[k] THEN
                            UPDATE accounts AS a SET booked_minor = a_booked[k] WHERE a.id = a_id[k];
                        END IF;
                    END LOOP;
                    WITH ins AS (
                        INSERT INTO transactions (kind, booking_date, value_date, created_at_ms)
                        SELECT b_kind[u.i3], b_booking_date[u.i3], b_value_date[u.i3], b_now[u.i3]
                        FROM unnest(accepted) WITH ORDINALITY AS u(i3, o) ORDER BY u.o RETURNING id)
                    SELECT array_agg(ins.id ORDER BY ins.id) INTO tx FROM ins;
                    FOR k IN 1..cardinality(accepted) LOOP
                        i := accepted[k];
                        tx_of[i] := tx[k];
                        FOR j IN b_first[i]..b_first[i] + b_count[i] - 1 LOOP
                            p_tx := p_tx || tx[k];
                            p_line := p_line || j;
                            p_booking := p_booking || i;
                        END LOOP;
                    END LOOP;
                    INSERT INTO postings (transaction_id, account_id, currency, amount_minor, balance_after_minor,
                        booking_date, value_date, counterparty, remittance)
                    SELECT u.t, l_account[u.j], l_currency[u.j], l_amount[u.j], l_balance[u.j], b_booking_date[u.b], b_value_date[u.b],
                        l_counterparty[u.j], l_remittance[u.j]
                    FROM unnest(p_tx, p_line, p_booking) WITH ORDINALITY AS u(t, j, b, o) ORDER BY u.o;
                    FOR k IN 1..cardinality(accepted) LOOP
                        i := accepted[k];
                        IF b_scope[i] IS NOT NULL THEN
                            UPDATE idempotency_keys AS ik SET transaction_id = tx[k] WHERE ik.scope = b_scope[i] AND ik.idem_key = b_key[i];
                        END IF;
                    END LOOP;
                END IF;

                RETURN QUERY SELECT g, state[g], fault[g], tx_of[g],
                    CASE WHEN state[g] = 'created' THEN l_balance[b_first[g]:b_first[g] + b_count[g] - 1] END
                FROM generate_series(1, n) AS g ORDER BY g;
            END
            $body$
            """
        ])
}
