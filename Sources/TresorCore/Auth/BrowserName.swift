/// A browser's family and system from its User-Agent, as people name it ("Chrome on Linux"):
/// the label of a push subscription, and of a new login a security alert tells of.
public enum BrowserName {
    public static func describe(_ userAgent: String) -> String {
        // why this order: Edge and Opera also say Chrome, and Chrome also says Safari.
        let browsers = [("Edg/", "Edge"), ("OPR/", "Opera"), ("Firefox/", "Firefox"), ("Chrome/", "Chrome"), ("Safari/", "Safari")]
        let systems = [
            ("iPhone", "iPhone"), ("iPad", "iPad"), ("Android", "Android"), ("Windows", "Windows"), ("Mac OS X", "macOS"), ("Linux", "Linux"),
        ]
        let browser = browsers.first { userAgent.contains($0.0) }?.1
        let system = systems.first { userAgent.contains($0.0) }?.1
        switch (browser, system) {
        case let (browser?, system?): return "\(browser) on \(system)"
        case let (browser?, nil): return browser
        case let (nil, system?): return system
        case (nil, nil): return "Browser"
        }
    }
}
