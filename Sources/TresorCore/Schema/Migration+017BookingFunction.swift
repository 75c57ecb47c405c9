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
            auditFieldFunction(declared: "IMMUTABLE"),
            bookSetFunction,
        ])

    /// `tresor_audit_field`: one field of an audit entry's hashed text, its UTF-8 length, a
    /// colon, its bytes; a missing field is the one byte 0 (`AuditEntry.computedHash`). Shared
    /// by migrations 17 and 19; 19 changed only its declared volatility. why one text: the
    /// hashes of the chain depend on the body; the two must not drift apart.
    static func auditFieldFunction(declared volatility: String) -> String {
        """
        CREATE OR REPLACE FUNCTION tresor_audit_field(t text) RETURNS bytea LANGUAGE sql \(volatility) AS $f$ \
        SELECT CASE WHEN t IS NULL THEN decode('313a00', 'hex') \
        ELSE convert_to(octet_length(convert_to(t, 'UTF8'))::text, 'UTF8') || decode('3a', 'hex') || convert_to(t, 'UTF8') END $f$
        """
    }

    /// The text of `tresor_book_set`, shared by migration 17 (which created it) and 18 (which
    /// made it bump `accounts.revision`). why one text: PostgreSQL keeps the last definition;
    /// a database created today runs both, one migrated from before 18 runs only the second.
    static let bookSetFunction = bookSetFunction(keys: .claimedFirst)

    /// The text of `tresor_book_set` with its idempotency keys handled as `keys` says.
    static func bookSetFunction(keys: BookSetKeys) -> String {
        """
        CREATE OR REPLACE FUNCTION tresor_book_set(b_kind text[], b_booking_date text[], b_value_date text[], b_now bigint[], \
        b_scope text[], b_key text[], b_hash text[], b_first int[], b_count int[], l_account bigint[], l_currency text[], \
        l_amount bigint[], l_counterparty text[], l_remittance text[], \
        e_at bigint[] DEFAULT NULL, e_actor text[] DEFAULT NULL, e_contract text[] DEFAULT NULL, e_action text[] DEFAULT NULL, \
        e_device text[] DEFAULT NULL, e_address text[] DEFAULT NULL, e_result text[] DEFAULT NULL, e_details text[] DEFAULT NULL) \
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
            k_scope text[] := '{}';
            k_key text[] := '{}';
            k_tx bigint[] := '{}';
            chain text;
            entry_hash text;
            subject text;
            w_at bigint[] := '{}';
            w_actor text[] := '{}';
            w_contract text[] := '{}';
            w_action text[] := '{}';
            w_subject text[] := '{}';
            w_device text[] := '{}';
            w_address text[] := '{}';
            w_result text[] := '{}';
            w_details text[] := '{}';
            w_prev text[] := '{}';
            w_hash text[] := '{}';
            last_entry bigint;
            r record;
            i int;
            j int;
            k int;
            nxt numeric;
        BEGIN\(keys.first)

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
                    ELSIF a_blocked[k] = 2 THEN
                        state[i] := 'account_closed';
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
        \(keys.refused)
            IF cardinality(accepted) > 0 THEN
                -- why joined to unnest: without sequential scans the plan is a nested loop of
                -- primary-key lookups, one statement for all rows (row by row cost 10 to 15 us each).
                UPDATE accounts AS a SET booked_minor = v.booked, revision = a.revision + 1
                FROM unnest(a_id, a_booked, a_changed) AS v(id, booked, changed)
                WHERE v.changed AND a.id = v.id;
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
                    IF b_scope[i] IS NOT NULL THEN
                        k_scope := k_scope || b_scope[i];
                        k_key := k_key || b_key[i];
                        k_tx := k_tx || tx[k];
                    END IF;
                END LOOP;
                INSERT INTO postings (transaction_id, account_id, currency, amount_minor, balance_after_minor,
                    booking_date, value_date, counterparty, remittance)
                SELECT u.t, l_account[u.j], l_currency[u.j], l_amount[u.j], l_balance[u.j], b_booking_date[u.b], b_value_date[u.b],
                    l_counterparty[u.j], l_remittance[u.j]
                FROM unnest(p_tx, p_line, p_booking) WITH ORDINALITY AS u(t, j, b, o) ORDER BY u.o;\(keys.linked)

                -- The audit entries of the created bookings, chained as AuditLog.append does
                -- (AuditEntry.computedHash over the same length-prefixed fields), in booking order.
                IF e_actor IS NOT NULL THEN
                    FOR k IN 1..cardinality(accepted) LOOP
                        i := accepted[k];
                        CONTINUE WHEN e_actor[i] IS NULL;
                        IF chain IS NULL THEN
                            SELECT h.last_hash INTO chain FROM audit_head AS h WHERE h.id = 1 FOR UPDATE;
                            IF NOT FOUND THEN
                                PERFORM pg_advisory_xact_lock(7472658);
                                SELECT coalesce((SELECT al.hash FROM audit_log AS al ORDER BY al.id DESC LIMIT 1), repeat('0', 64)) INTO chain;
                            END IF;
                        END IF;
                        subject := 'transaction:' || tx[k];
                        entry_hash := encode(sha256(tresor_audit_field(chain) || tresor_audit_field(e_at[i]::text)
                            || tresor_audit_field(e_actor[i]) || tresor_audit_field(e_contract[i]) || tresor_audit_field(e_action[i])
                            || tresor_audit_field(subject) || tresor_audit_field(e_device[i]) || tresor_audit_field(e_address[i])
                            || tresor_audit_field(e_result[i]) || tresor_audit_field(e_details[i])), 'hex');
                        w_at := w_at || e_at[i];
                        w_actor := w_actor || e_actor[i];
                        w_contract := w_contract || e_contract[i];
                        w_action := w_action || e_action[i];
                        w_subject := w_subject || subject;
                        w_device := w_device || e_device[i];
                        w_address := w_address || e_address[i];
                        w_result := w_result || e_result[i];
                        w_details := w_details || e_details[i];
                        w_prev := w_prev || chain;
                        w_hash := w_hash || entry_hash;
                        chain := entry_hash;
                    END LOOP;
                    IF cardinality(w_hash) > 0 THEN
                        WITH ins AS (
                            INSERT INTO audit_log (at_ms, actor, contract, action, subject, device, address, result, details, prev_hash, hash)
                            SELECT u.a1, u.a2, u.a3, u.a4, u.a5, u.a6, u.a7, u.a8, u.a9, u.a10, u.a11
                            FROM unnest(w_at, w_actor, w_contract, w_action, w_subject, w_device, w_address, w_result, w_details, w_prev, w_hash)
                            WITH ORDINALITY AS u(a1, a2, a3, a4, a5, a6, a7, a8, a9, a10, a11, o) ORDER BY u.o RETURNING id)
                        SELECT max(ins.id) INTO last_entry FROM ins;
                        INSERT INTO audit_head (id, last_id, last_hash) VALUES (1, last_entry, chain)
                        ON CONFLICT (id) DO UPDATE SET last_id = excluded.last_id, last_hash = excluded.last_hash;
                    END IF;
                END IF;
            END IF;

            RETURN QUERY SELECT g, state[g], fault[g], tx_of[g],
                CASE WHEN state[g] = 'created' THEN l_balance[b_first[g]:b_first[g] + b_count[g] - 1] END
            FROM generate_series(1, n) AS g ORDER BY g;
        END
        $body$
        """
    }

    /// How `tresor_book_set` takes a set's idempotency keys.
    enum BookSetKeys {
        /// Migrations 17 and 18: claimed first, by an insert that waits for a concurrent claim
        /// of the same key; linked to their transactions by an UPDATE once those are written; a
        /// refused booking's claim deleted.
        case claimedFirst
        /// Migration 20: read first; written once, with their transactions, after the postings;
        /// a key another transaction wrote meanwhile fails the call (40001), and the batch is
        /// written again (`GroupCommitter.write`), which then reads it as a replay.
        case writtenLast

        /// After `BEGIN`: the keys taken before, their bookings marked `replay`.
        var first: String {
            switch self {
            case .claimedFirst:
                """

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
                """
            case .writtenLast:
                """

                    SELECT coalesce(array_agg(ik.scope || chr(31) || ik.idem_key), '{}') INTO claimed
                    FROM unnest(b_scope, b_key) AS u(key_scope, key_text)
                    JOIN idempotency_keys AS ik ON ik.scope = u.key_scope AND ik.idem_key = u.key_text;
                    FOR i IN 1..n LOOP
                        IF b_scope[i] IS NOT NULL AND (b_scope[i] || chr(31) || b_key[i]) = ANY (claimed) THEN
                            state[i] := 'replay';
                        END IF;
                    END LOOP;
                """
            }
        }

        /// After the decisions: what is left of a refused booking's key.
        var refused: String {
            switch self {
            case .claimedFirst:
                """

                    FOREACH i IN ARRAY refused LOOP
                        DELETE FROM idempotency_keys AS ik WHERE ik.scope = b_scope[i] AND ik.idem_key = b_key[i];
                    END LOOP;
                """
            case .writtenLast: ""
            }
        }

        /// After the postings: the keys of the created bookings with their transactions.
        var linked: String {
            switch self {
            case .claimedFirst:
                """

                        UPDATE idempotency_keys AS ik SET transaction_id = v.txid
                        FROM unnest(k_scope, k_key, k_tx) AS v(scope, idem_key, txid) WHERE ik.scope = v.scope AND ik.idem_key = v.idem_key;
                """
            case .writtenLast:
                """

                        WITH ins AS (
                            INSERT INTO idempotency_keys (scope, idem_key, request_hash, transaction_id, created_at_ms)
                            SELECT b_scope[u.i4], b_key[u.i4], b_hash[u.i4], tx_of[u.i4], b_now[u.i4] FROM unnest(accepted) AS u(i4)
                            WHERE b_scope[u.i4] IS NOT NULL ORDER BY b_scope[u.i4] COLLATE "C", b_key[u.i4] COLLATE "C"
                            ON CONFLICT DO NOTHING RETURNING 1)
                        SELECT count(*) INTO k FROM ins;
                        IF k <> cardinality(k_scope) THEN
                            RAISE serialization_failure USING MESSAGE = 'an idempotency key of the set was written meanwhile';
                        END IF;
                """
            }
        }
    }
}
