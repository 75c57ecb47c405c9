/// QR-bill payloads for API tests: the guidelines' first sample with an amount of our choosing.
enum QRBillSamples {
    static func withAmount(amount: String) -> String {
        [
            "SPC", "0200", "1", "CH4431999123000889012", "S", "Robert Schneider AG", "Rue du Lac", "1268", "2501", "Biel", "CH",
            "", "", "", "", "", "", "", amount, "CHF", "S", "Pia-Maria Rutschmann-Schnyder", "Grosse Marktgasse", "28", "9400",
            "Rorschach", "CH", "QRR", "210000000003139471430009017", "Order dated 18.06.2020", "EPD",
        ].joined(separator: "\r\n")
    }
}
