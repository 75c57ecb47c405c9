import Foundation
import TresorDomain

/// The demo banks' branch networks: real-looking Swiss addresses and coordinates, hours with
/// lunch breaks, an ATM in every branch and more at stations; advisors, banknote stock, the
/// loan price table and a real ECB rates file, so the finder, appointments, foreign cash and
/// the loan calculator work offline from the first `make run`.
extension DemoBranchNetwork {
    static let tresor: DemoBranchNetwork.Site = .init(
        branches: [
            .init(
                "ZH-PARA", "Zürich Paradeplatz", "Paradeplatz 8", "8001", "Zürich", "47.369800", "8.539100", phone: "+41 44 500 10 00",
                services: "advice,cash_desk,foreign_cash,safe_deposit", hours: "Mo-Fr 08:30-17:30; Sa 09:00-12:00", advisors: 3),
            .init(
                "ZH-OERL", "Zürich Oerlikon", "Schaffhauserstrasse 340", "8050", "Zürich", "47.410600", "8.544600", phone: "+41 44 500 10 20",
                services: "advice,cash_desk,foreign_cash", hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 2),
            .init(
                "USTER", "Uster", "Bankstrasse 2", "8610", "Uster", "47.347600", "8.718800", phone: "+41 44 500 10 40", services: "advice,cash_desk",
                hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 1),
            .init(
                "WIN", "Winterthur", "Marktgasse 40", "8400", "Winterthur", "47.499900", "8.727000", phone: "+41 52 500 10 00",
                services: "advice,cash_desk,foreign_cash,safe_deposit", hours: "Mo-We,Fr 08:30-12:00,13:30-17:00; Th 08:30-12:00,13:30-18:30",
                advisors: 2),
            .init(
                "ZUG", "Zug", "Bahnhofstrasse 12", "6300", "Zug", "47.171700", "8.516500", phone: "+41 41 500 10 00",
                services: "advice,cash_desk,foreign_cash", hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 2),
            .init(
                "BADEN", "Baden", "Badstrasse 5", "5400", "Baden", "47.474000", "8.306500", phone: "+41 56 500 10 00", services: "advice,cash_desk",
                hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 1),
            .init(
                "LUZ", "Luzern", "Schwanenplatz 4", "6004", "Luzern", "47.052500", "8.309500", phone: "+41 41 500 20 00",
                services: "advice,cash_desk,foreign_cash,safe_deposit", hours: "Mo-Fr 08:30-12:15,13:30-17:00; Sa 09:00-12:00", advisors: 2),
            .init(
                "BERN", "Bern", "Bundesplatz 2", "3011", "Bern", "46.947200", "7.444400", phone: "+41 31 500 10 00",
                services: "advice,cash_desk,foreign_cash,safe_deposit", hours: "Mo-Fr 08:30-17:00", advisors: 2),
            .init(
                "BASEL", "Basel", "Marktplatz 11", "4051", "Basel", "47.558100", "7.588000", phone: "+41 61 500 10 00",
                services: "advice,cash_desk,foreign_cash", hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 2),
            .init(
                "SG", "St. Gallen", "Multergasse 20", "9000", "St. Gallen", "47.424100", "9.374700", phone: "+41 71 500 10 00",
                services: "advice,cash_desk", hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 1),
            .init(
                "CHUR", "Chur", "Poststrasse 10", "7000", "Chur", "46.850300", "9.531500", phone: "+41 81 500 10 00", services: "advice,cash_desk",
                hours: "Mo-Fr 08:30-12:00,14:00-17:00", advisors: 1),
            .init(
                "LUG", "Lugano", "Via Nassa 5", "6900", "Lugano", "46.003000", "8.951900", phone: "+41 91 500 10 00",
                services: "advice,cash_desk,foreign_cash", hours: "Mo-Fr 08:30-12:00,13:30-16:30", advisors: 1),
            .init(
                "GE", "Genève", "Rue du Rhône 48", "1204", "Genève", "46.203700", "6.147500", phone: "+41 22 500 10 00",
                services: "advice,cash_desk,foreign_cash,safe_deposit", hours: "Mo-Fr 08:30-17:00", advisors: 2),
        ],
        atms: [
            .init(
                "ATM-ZH-HB", "Zürich HB, Bahnhofhalle", "Bahnhofplatz 15", "8001", "Zürich", "47.378177", "8.540192", currencies: "CHF,EUR",
                deposit: true),
            .init(
                "ATM-ZH-STAD", "Zürich Stadelhofen", "Stadelhoferplatz 1", "8001", "Zürich", "47.366700", "8.548300", currencies: "CHF",
                deposit: false),
            .init(
                "ATM-ZH-BELL", "Zürich Bellevue", "Bellevueplatz 1", "8001", "Zürich", "47.366900", "8.545200", currencies: "CHF,EUR", deposit: false),
            .init("ATM-ZH-ENGE", "Zürich Enge", "Tessinerplatz 10", "8002", "Zürich", "47.364200", "8.531700", currencies: "CHF", deposit: false),
            .init("ATM-ZH-HARD", "Zürich Hardbrücke", "Hardstrasse 201", "8005", "Zürich", "47.385100", "8.517000", currencies: "CHF", deposit: true),
            .init(
                "ATM-ZH-FLUG", "Zürich Flughafen, Airside Center", "Flughafenstrasse 1", "8058", "Zürich-Flughafen", "47.450400", "8.562400",
                currencies: "CHF,EUR,USD", deposit: false),
            .init(
                "ATM-ZH-ALT", "Zürich Altstetten", "Altstetterstrasse 150", "8048", "Zürich", "47.391300", "8.488400", currencies: "CHF",
                deposit: false),
            .init("ATM-ZH-ETH", "ETH Zentrum", "Rämistrasse 101", "8092", "Zürich", "47.376500", "8.548000", currencies: "CHF", deposit: false),
            .init(
                "ATM-DUEB", "Dübendorf Bahnhof", "Bahnhofstrasse 1", "8600", "Dübendorf", "47.397300", "8.618300", currencies: "CHF", deposit: false),
            .init("ATM-THAL", "Thalwil Bahnhof", "Bahnhofstrasse 20", "8800", "Thalwil", "47.295300", "8.564400", currencies: "CHF", deposit: true),
            .init(
                "ATM-WIN-HB", "Winterthur HB", "Bahnhofplatz 1", "8400", "Winterthur", "47.500300", "8.723700", currencies: "CHF,EUR", deposit: false),
            .init("ATM-ZUG-MET", "Zug Metalli", "Industriestrasse 15", "6300", "Zug", "47.174500", "8.514000", currencies: "CHF", deposit: true),
            .init(
                "ATM-LUZ-BHF", "Luzern Bahnhof", "Zentralstrasse 1", "6003", "Luzern", "47.050200", "8.310200", currencies: "CHF,EUR", deposit: false),
            .init("ATM-BERN-BHF", "Bern Bahnhof", "Bahnhofplatz 10", "3011", "Bern", "46.948800", "7.439100", currencies: "CHF,EUR", deposit: false),
            .init(
                "ATM-BASEL-SBB", "Basel SBB", "Centralbahnstrasse 10", "4051", "Basel", "47.547400", "7.589600", currencies: "CHF,EUR", deposit: true),
            .init(
                "ATM-SG-BHF", "St. Gallen Bahnhof", "Bahnhofplatz 2", "9000", "St. Gallen", "47.423300", "9.369600", currencies: "CHF", deposit: false
            ),
            .init(
                "ATM-GE-CORN", "Genève Cornavin", "Place de Cornavin 7", "1201", "Genève", "46.210200", "6.142400", currencies: "CHF,EUR",
                deposit: false),
            .init(
                "ATM-LUG-STAZ", "Lugano Stazione", "Piazzale della Stazione 1", "6900", "Lugano", "46.005100", "8.946800", currencies: "CHF,EUR",
                deposit: false),
        ])

    static let leman: DemoBranchNetwork.Site = .init(
        branches: [
            .init(
                "LS-SF", "Lausanne Saint-François", "Place Saint-François 14", "1003", "Lausanne", "46.519700", "6.633500", phone: "+41 21 600 10 00",
                services: "advice,cash_desk,foreign_cash,safe_deposit", hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 2),
            .init(
                "GE-PLAIN", "Genève Plainpalais", "Boulevard Carl-Vogt 2", "1205", "Genève", "46.198400", "6.141900", phone: "+41 22 600 10 00",
                services: "advice,cash_desk,foreign_cash", hours: "Mo-Fr 08:30-17:00", advisors: 2),
            .init(
                "MONTREUX", "Montreux", "Grand-Rue 50", "1820", "Montreux", "46.433000", "6.911000", phone: "+41 21 600 20 00",
                services: "advice,cash_desk,foreign_cash", hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 1),
            .init(
                "VEVEY", "Vevey", "Rue du Simplon 10", "1800", "Vevey", "46.461200", "6.842800", phone: "+41 21 600 30 00",
                services: "advice,cash_desk", hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 1),
            .init(
                "NYON", "Nyon", "Rue de la Gare 8", "1260", "Nyon", "46.382600", "6.239400", phone: "+41 22 600 20 00", services: "advice,cash_desk",
                hours: "Mo-Fr 08:30-12:00,13:30-17:00", advisors: 1),
            .init(
                "MORGES", "Morges", "Grand-Rue 70", "1110", "Morges", "46.509400", "6.498700", phone: "+41 21 600 40 00",
                services: "advice,cash_desk", hours: "Mo-Fr 08:30-12:00,13:30-16:30", advisors: 1),
        ],
        atms: [
            .init(
                "ATM-LS-GARE", "Lausanne Gare", "Place de la Gare 9", "1003", "Lausanne", "46.516800", "6.629100", currencies: "CHF,EUR",
                deposit: true),
            .init(
                "ATM-GE-AERO", "Genève Aéroport", "Route de l'Aéroport 21", "1215", "Genève", "46.231000", "6.109100", currencies: "CHF,EUR,USD",
                deposit: false),
            .init(
                "ATM-OUCHY", "Lausanne Ouchy", "Place de la Navigation 6", "1006", "Lausanne", "46.506500", "6.627000", currencies: "CHF",
                deposit: false),
            .init("ATM-EPFL", "EPFL", "Route Cantonale", "1015", "Lausanne", "46.519000", "6.566800", currencies: "CHF", deposit: false),
        ])

    /// Advisors' names, handed out in order.
    static let advisorNames = [
        "Anna Keller",
        "Marco Rossi",
        "Sara Brunner",
        "Lukas Meier",
        "Nina Weber",
        "Jonas Frei",
        "Laura Baumann",
        "David Huber",
        "Elena Moser",
        "Tim Schmid",
        "Julia Widmer",
        "Fabian Graf",
        "Lea Steiner",
        "Nicolas Bühler",
        "Mia Zürcher",
        "Simon Gerber",
        "Chiara Lombardi",
        "Pascal Favre",
        "Claire Fontaine",
        "Yann Morel",
        "Amélie Rochat",
        "Thomas Girard",
        "Camille Perret",
        "Hugo Blanc",
        "Inès Chevalier",
        "Luc Bonvin",
        "Mathilde Pache",
        "Noé Jaccard",
        "Zoé Martin",
        "Rami Haddad",
    ]

    /// A real ECB daily reference-rates file (as published, single quotes and tabs), the demo's
    /// rates until `tresor fx import` or `serve --fx-url` brings newer ones.
    static let ratesSnapshot = #"""
        <?xml version="1.0" encoding="UTF-8"?>
        <gesmes:Envelope xmlns:gesmes="http://www.gesmes.org/xml/2002-08-01" xmlns="http://www.ecb.int/vocabulary/2002-08-01/eurofxref">
        	<gesmes:subject>Reference rates</gesmes:subject>
        	<gesmes:Sender>
        		<gesmes:name>European Central Bank</gesmes:name>
        	</gesmes:Sender>
        	<Cube>
        		<Cube time='2025-05-09'>
        			<Cube currency='USD' rate='1.1252'/>
        			<Cube currency='JPY' rate='163.36'/>
        			<Cube currency='BGN' rate='1.9558'/>
        			<Cube currency='CZK' rate='24.946'/>
        			<Cube currency='DKK' rate='7.4604'/>
        			<Cube currency='GBP' rate='0.84770'/>
        			<Cube currency='HUF' rate='404.90'/>
        			<Cube currency='PLN' rate='4.2393'/>
        			<Cube currency='RON' rate='5.1181'/>
        			<Cube currency='SEK' rate='10.9200'/>
        			<Cube currency='CHF' rate='0.9353'/>
        			<Cube currency='ISK' rate='146.90'/>
        			<Cube currency='NOK' rate='11.6725'/>
        			<Cube currency='TRY' rate='43.5999'/>
        			<Cube currency='AUD' rate='1.7572'/>
        			<Cube currency='BRL' rate='6.3647'/>
        			<Cube currency='CAD' rate='1.5658'/>
        			<Cube currency='CNY' rate='8.1470'/>
        			<Cube currency='HKD' rate='8.7519'/>
        			<Cube currency='IDR' rate='18606.59'/>
        			<Cube currency='ILS' rate='3.9928'/>
        			<Cube currency='INR' rate='96.0755'/>
        			<Cube currency='KRW' rate='1575.72'/>
        			<Cube currency='MXN' rate='21.9473'/>
        			<Cube currency='MYR' rate='4.8350'/>
        			<Cube currency='NZD' rate='1.9095'/>
        			<Cube currency='PHP' rate='62.413'/>
        			<Cube currency='SGD' rate='1.4600'/>
        			<Cube currency='THB' rate='37.132'/>
        			<Cube currency='ZAR' rate='20.4835'/>
        		</Cube>
        	</Cube>
        </gesmes:Envelope>
        """#
}
