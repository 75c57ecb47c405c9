import Testing
import TresorDomain

@Suite("Country codes of addresses and BICs: ISO 3166, as the payment system reads them")
struct CountryCodeTests {
    /// Real BICs of banks of 47 countries from the bank registry the PyPI package schwifty ships,
    /// and the same BICs with a country ISO does not assign (`scripts/generate-bank-registry.py`).
    static let bics: (real: [String], unknownCountry: [String]) = {
        let document = Vectors.named("bic-registry")
        return (document["real"] as? [String] ?? [], document["unknown_country"] as? [String] ?? [])
    }()

    @Test("schwifty's real BICs are taken; with UK, XX or SW as their country they are refused, as schwifty refuses them")
    func bicVectors() throws {
        #expect(Self.bics.real.count > 150 && Self.bics.unknownCountry.count > 100)
        for code in Self.bics.real {
            #expect(throws: Never.self, "\(code)") { try BIC(code) }
        }
        for code in Self.bics.unknownCountry {
            #expect(throws: DomainError.self, "\(code)") { try BIC(code) }
        }
    }

    @Test("a BIC's party prefix may hold digits (ISO 9362:2014); UK is refused with GB offered")
    func bicShapes() throws {
        #expect(try BIC("1BSWCHZH").code == "1BSWCHZH")
        #expect(try BIC("UBSWXKZH").code == "UBSWXKZH", "Kosovo's XK, as SWIFT and the IBAN registry use it")
        let uk = #expect(throws: DomainError.self) { try BIC("BARCUK22XXX") }
        #expect(uk?.suggested == "BARCGB22XXX" && uk?.message.contains("UK is none") == true)
        #expect(throws: DomainError.self) { try BIC("UBSW1HZH") }
    }

    @Test("an address's country is an ISO code: UK gets GB offered, EL GR; SW and XX are refused", arguments: ["UK", "EL", "SW", "XX", "ch"])
    func addresses(country: String) throws {
        let address = PostalAddress(name: "Muster AG", street: "Weg", buildingNumber: "1", postalCode: "1000", town: "Town", country: country)
        let refusal = #expect(throws: DomainError.self) { try address.validate(field: "creditor") }
        #expect(refusal?.code == .invalidCountry && refusal?.field == "creditor.country")
        #expect(refusal?.suggested == ["UK": "GB", "EL": "GR"][country])
    }

    @Test("every code ISO assigns, and XK, is taken")
    func known() throws {
        for code in ["CH", "LI", "DE", "GB", "GR", "XK", "AQ", "SS", "BQ"] {
            let address = PostalAddress(name: "Muster AG", street: nil, buildingNumber: nil, postalCode: "1000", town: "Town", country: code)
            #expect(throws: Never.self, "\(code)") { try address.validate(field: "creditor") }
        }
    }
}
