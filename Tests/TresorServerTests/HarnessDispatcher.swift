import Hummingbird
import TresorCore
import TresorServer

extension BankDispatcher {
    /// What `tresor serve` puts in front of its banks, over routers from `APIHarness`: one per
    /// entry of `hosts`, the bank of no host name being the default (the first is called
    /// "tresor", as the demo bank is). `tls` adds what a TLS server adds (HSTS, Secure cookies).
    static func harness(_ routers: [Router<TresorRequestContext>], hosts: [[String]] = [[]], tls: Bool = false) -> BankDispatcher {
        precondition(routers.count == hosts.count, "one router per bank")
        let banks = zip(hosts, routers).enumerated().map { index, bank in
            let (names, router) = bank
            let config = BankConfig(
                id: index == 0 ? "tresor" : "bank\(index)", name: "Bank \(index)", clearing: 8888, hosts: names, isDefault: names.isEmpty,
                database: "unused")
            return (config: config, router: router)
        }
        var dispatcher = BankDispatcher(banks: banks)
        dispatcher.servesTLS = tls
        return dispatcher
    }
}
