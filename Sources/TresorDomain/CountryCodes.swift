/// Which two letters name a country: ISO 3166-1 alpha-2 (`CountryCodes+ISO3166.swift`, generated
/// from Debian's iso-codes) and Kosovo's `XK`, which ISO leaves to users and the IBAN registry
/// and SWIFT use.
///
/// why a list: "two capital letters" took `UK` and `SW` for Switzerland, and `XX`; a payment to
/// such an address or BIC is refused by the payment system, or returned, days later.
public enum CountryCodes {
    public static func isKnown(_ code: some StringProtocol) -> Bool {
        code == "XK" || iso3166.contains(String(code))
    }

    /// The code meant by one ISO keeps for other uses: `UK` (the United Kingdom is `GB`), `EL`
    /// (the EU's code for Greece, `GR`).
    public static func meant(by code: some StringProtocol) -> String? {
        ["UK": "GB", "EL": "GR"][String(code)]
    }
}
