/// The sample bills of the Swiss Implementation Guidelines QR-bill (SIX), as far as they can be
/// reconstructed from the guidelines' examples, with the combined addresses of the older
/// editions written as structured ones (v2.3 accepts only those).
enum SIXSampleBills {
    static func lines(_ elements: [String]) -> String { elements.joined(separator: "\r\n") }

    static let robertSchneider = ["S", "Robert Schneider AG", "Rue du Lac", "1268", "2501", "Biel", "CH"]
    static let piaMaria = ["S", "Pia-Maria Rutschmann-Schnyder", "Grosse Marktgasse", "28", "9400", "Rorschach", "CH"]
    static let empty7 = Array(repeating: "", count: 7)

    /// Example 1: QR-IBAN with QR reference, amount, ultimate debtor, billing information and
    /// two alternative procedures.
    static let qrReferenceWithAmount = lines(
        ["SPC", "0200", "1", "CH4431999123000889012"] + robertSchneider + empty7 + ["1949.75", "CHF"] + piaMaria
            + [
                "QRR", "210000000003139471430009017", "Order dated 18.06.2020", "EPD",
                "//S1/10/10201409/11/200701/20/140.000-53/30/102673831/31/200615/32/7.7/33/7.7:139.40/40/0:30",
                "Name AV1: UV;UltraPay005;12345", "Name AV2: XY;XYService;54321",
            ])

    /// Example 2: QR reference without amount: the payer fills it in.
    static let qrReferenceWithoutAmount = lines(
        ["SPC", "0200", "1", "CH4431999123000889012"] + robertSchneider + empty7 + ["", "CHF"] + piaMaria
            + ["QRR", "210000000003139471430009017", "Order dated 18.06.2020", "EPD"])

    /// Example 3: IBAN with ISO 11649 creditor reference, in EUR.
    static let creditorReference = lines(
        ["SPC", "0200", "1", "CH5800791123000889012"] + robertSchneider + empty7 + ["199.95", "EUR"] + piaMaria
            + ["SCOR", "RF18539007547034", "", "EPD"])

    /// Example 4: a donation without amount, debtor or reference.
    static let donation = lines(
        ["SPC", "0200", "1", "CH3709000000304442225", "S", "Salvation Army Foundation Switzerland", "", "", "3000", "Bern", "CH"]
            + empty7 + ["", "CHF"] + empty7 + ["NON", "", "Donation to the Year End Action", "EPD"])

    /// Example 5: IBAN without reference, with amount and billing information.
    static let withoutReference = lines(
        ["SPC", "0200", "1", "CH5800791123000889012"] + robertSchneider + empty7 + ["1949.75", "CHF"] + piaMaria
            + [
                "NON", "", "Bill No. 3139 for garden work and disposal of cuttings", "EPD",
                "//S1/10/10201409/11/190512/20/1400.000-53/30/106017086/31/180508/32/7.7/40/2:10;0:30",
            ])
}
