"""The money requests the crash and chaos tests send and replay: a transfer, or every third one an
internal payment, of CHF 1.00 between two accounts. Shared so both tests load the server alike."""
import json

# Route and answer field of each kind: where a request goes, and which object of its answer has the id.
ROUTES = {"transfer": ("/v1/transfers", "transaction"), "payment": ("/v1/payments", "payment")}


def money_request(n, source, target, message):
    """The n-th request of a client: (kind, path, JSON body)."""
    amount = {"amount": "1.00", "currency": "CHF"}
    if n % 3 == 0:
        kind = "payment"
        body = {"type": "internal", "debtor_account": source, "amount": amount, "creditor": {"account": target}, "message": message}
    else:
        kind = "transfer"
        body = {"from_account": source, "to_account": target, "amount": amount, "message": message}
    return kind, ROUTES[kind][0], json.dumps(body)


def answered_id(kind, data):
    """The id of the transfer's transaction or of the payment in a JSON answer, or None."""
    return json.loads(data).get(ROUTES[kind][1], {}).get("id")
