import Testing
import TresorDomain

@Suite("Contract numbers")
struct ContractNumberTests {
    @Test("the demo contracts are valid; every single wrong digit is caught, and 97 % of swapped neighbours")
    func checkDigitCatchesTypos() {
        for demo in ["10000012", "10000028", "10000033", "10000049", "20000016", "20000024"] { #expect(ContractNumber.isValid(demo)) }
        var (swaps, missed) = (0, 0)
        for serial in stride(from: 1_000_003, through: 9_999_999, by: 29_989) {
            let number = ContractNumber.make(serial: serial)
            #expect(ContractNumber.isValid(number) && number.count == 8)
            let digits = Array(number)
            for position in 0..<8 {
                for replacement in "0123456789" where replacement != digits[position] {
                    var typo = digits
                    typo[position] = replacement
                    #expect(!ContractNumber.isValid(String(typo)), "\(number) → \(String(typo))")
                }
                if position < 7, digits[position] != digits[position + 1] {
                    var swapped = digits
                    swapped.swapAt(position, position + 1)
                    swaps += 1
                    if ContractNumber.isValid(String(swapped)) { missed += 1 }
                }
            }
        }
        // why not all: mod 10 recursive lets about one swap in 45 through (as Luhn does 09/90).
        #expect(swaps > 1_500 && Double(missed) / Double(swaps) < 0.03, "\(missed) of \(swaps)")
    }

    @Test("only eight ASCII digits count")
    func shape() {
        #expect(ContractNumber.make(serial: 42) == "00000420")
        #expect(ContractNumber.make(serial: 1_000_001) == "10000012")
        for bad in ["", "1000001", "100000123", "1000001a", "١٠٠٠٠٠١٢", " 10000012"] { #expect(!ContractNumber.isValid(bad), "\(bad)") }
    }
}
