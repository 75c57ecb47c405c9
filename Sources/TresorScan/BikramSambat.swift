import TresorDomain

/// Dates of the Bikram Sambat (Vikram Samvat) calendar, Nepal's official one, which tills there
/// print beside the Gregorian date (`Miti : 21/03/2081` under `Date : 07/05/2024`).
///
/// why: a Kathmandu receipt's Gregorian date is ambiguous (07/05/2024), and nothing else on it
/// says whether the day or the month comes first; its Bikram Sambat date says which (21 Ashar
/// 2081 is 5 July 2024). The calendar's months have no rule (29 to 32 days, fixed each year by
/// astronomers): the table is the published one, years 2070–2100 (2013–2044), as the PyPI
/// package nepali-datetime 1.0.8.5 ships it (`data/calendar_bs.csv`, MIT licence).
enum BikramSambat {
    static let firstYear = 2070
    /// 1 Baisakh 2070.
    static let firstDay = LocalDate(year: 2013, month: 4, day: 14)!
    /// Days of Baisakh … Chaitra, per year from `firstYear`.
    static let monthLengths: [[Int]] = [
        [31, 31, 31, 32, 31, 31, 29, 30, 30, 29, 30, 30],  // 2070
        [31, 31, 32, 31, 31, 31, 30, 29, 30, 29, 30, 30],  // 2071
        [31, 32, 31, 32, 31, 30, 30, 29, 30, 29, 30, 30],  // 2072
        [31, 32, 31, 32, 31, 30, 30, 30, 29, 29, 30, 31],  // 2073
        [31, 31, 31, 32, 31, 31, 30, 29, 30, 29, 30, 30],  // 2074
        [31, 31, 32, 31, 31, 31, 30, 29, 30, 29, 30, 30],  // 2075
        [31, 32, 31, 32, 31, 30, 30, 30, 29, 29, 30, 30],  // 2076
        [31, 32, 31, 32, 31, 30, 30, 30, 29, 30, 29, 31],  // 2077
        [31, 31, 31, 32, 31, 31, 30, 29, 30, 29, 30, 30],  // 2078
        [31, 31, 32, 31, 31, 31, 30, 29, 30, 29, 30, 30],  // 2079
        [31, 32, 31, 32, 31, 30, 30, 30, 29, 29, 30, 30],  // 2080
        [31, 32, 31, 32, 31, 30, 30, 30, 29, 30, 29, 31],  // 2081
        [31, 31, 32, 31, 31, 31, 30, 29, 30, 29, 30, 30],  // 2082
        [31, 31, 32, 31, 31, 31, 30, 29, 30, 29, 30, 30],  // 2083
        [31, 31, 32, 31, 31, 30, 30, 30, 29, 30, 30, 30],  // 2084
        [31, 32, 31, 32, 30, 31, 30, 30, 29, 30, 30, 30],  // 2085
        [30, 32, 31, 32, 31, 30, 30, 30, 29, 30, 30, 30],  // 2086
        [31, 31, 32, 31, 31, 31, 30, 29, 30, 30, 30, 30],  // 2087
        [30, 31, 32, 32, 30, 31, 30, 30, 29, 30, 30, 30],  // 2088
        [30, 32, 31, 32, 31, 30, 30, 30, 29, 30, 30, 30],  // 2089
        [30, 32, 31, 32, 31, 30, 30, 30, 29, 30, 30, 30],  // 2090
        [31, 31, 32, 31, 31, 31, 30, 30, 29, 30, 30, 30],  // 2091
        [30, 31, 32, 32, 31, 30, 30, 30, 29, 30, 30, 30],  // 2092
        [30, 32, 31, 32, 31, 30, 30, 30, 29, 30, 30, 30],  // 2093
        [31, 31, 32, 31, 31, 30, 30, 30, 29, 30, 30, 30],  // 2094
        [31, 31, 32, 31, 31, 31, 30, 29, 30, 30, 30, 30],  // 2095
        [30, 31, 32, 32, 31, 30, 30, 29, 30, 29, 30, 30],  // 2096
        [31, 32, 31, 32, 31, 30, 30, 30, 29, 30, 30, 30],  // 2097
        [31, 31, 32, 31, 31, 31, 29, 30, 29, 30, 29, 31],  // 2098
        [31, 31, 32, 31, 31, 31, 30, 29, 29, 30, 30, 30],  // 2099
        [31, 32, 31, 32, 30, 31, 30, 29, 30, 29, 30, 30],  // 2100
    ]

    /// The Gregorian date of day `day` of month `month` (1 = Baisakh) of `year`; nil outside
    /// the table or the month.
    static func gregorian(year: Int, month: Int, day: Int) -> LocalDate? {
        let index = year - firstYear
        guard monthLengths.indices.contains(index), (1...12).contains(month), (1...monthLengths[index][month - 1]).contains(day) else {
            return nil
        }
        let yearsBefore = monthLengths[..<index].reduce(0) { $0 + $1.reduce(0, +) }
        return firstDay.adding(days: yearsBefore + monthLengths[index][..<(month - 1)].reduce(0, +) + day - 1)
    }
}
