import Foundation
import Testing
import WhereaboutsCore
import WhereaboutsServer

/// The login form and the day page in a real headless Chromium, with screenshots in
/// `.build/test-output/`.
@Suite("pages in a real browser", .enabled(if: HeadlessChromium.path != nil, "\(HeadlessChromium.missing)"))
struct BrowserTests {
    /// A loop around a lake, 30 s apart, a day ago.
    private func track() -> [WireLocation] {
        let start = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 86_400).rounded(.down) * 86_400 - 86_400 + 8 * 3600)
        return (0..<240).map { i in
            let angle = Double(i) / 240 * 2 * .pi
            let fix = try! Fix(
                coordinate: Coordinate(latitude: 47.36 + 0.01 * sin(angle), longitude: 8.54 + 0.015 * cos(angle)), horizontalAccuracy: 5,
                timestamp: start.addingTimeInterval(Double(i * 30)))
            return WireLocation(LocationRecord(fix: fix, trigger: .policy))
        }
    }

    /// Logs in through the form of `server` in `browser` and waits for the day page's map to draw
    /// the track.
    private func logInAndShowDay(_ browser: HeadlessChromium, _ server: LiveServer) async throws {
        _ = try await server.send("POST", "/v1/devices/\(server.device)/locations", token: server.token, body: batchBody(track()))
        try await browser.open(server.base.absoluteString + "/login")
        #expect(try await browser.wait(for: "document.querySelector('form input[name=token]') ? 'form' : ''") == "form")
        _ = try await browser.evaluate(
            """
            document.querySelector('input[name=device]').value = '\(server.device)';
            document.querySelector('input[name=token]').value = '\(server.token)';
            document.querySelector('form').submit(); 'sent'
            """)
        #expect(try await browser.wait(for: "location.pathname === '/devices/\(server.device)' ? 'day' : ''") == "day")
        #expect(try await browser.evaluate("document.cookie") == "", "the login cookie is HttpOnly: scripts never see it")
        #expect(
            try await browser.wait(for: "document.querySelector('#drawing svg polyline') ? 'svg' : ''") == "svg",
            "the drawing is in the page")
    }

    @Test(
        "Chromium logs in with the form and shows the day on a Leaflet map from the server's own Leaflet, tiles and all, with the SVG drawing in the page"
    )
    func loginAndMap() async throws {
        let browser = try await HeadlessChromium.start()
        let folder = URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent(".build/test-output")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        do {
            // No network here: one server's Leaflet marker image stands in for the tiles of another.
            try await withLiveServer(.sqlite) { tileServer in
                let tiles = "\(tileServer.base.absoluteString)/assets/leaflet/images/layers.png?z={z}&x={x}&y={y}"
                try await withLiveServer(.sqlite, settings: ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, tileURL: tiles))
                { server in
                    try await logInAndShowDay(browser, server)
                    #expect(
                        try await browser.wait(for: "document.querySelectorAll('.leaflet-overlay-pane path').length > 0 ? 'drawn' : ''")
                            == "drawn")
                    #expect(try await browser.wait(for: "document.querySelector('.leaflet-tile-loaded') ? 'tile' : ''") == "tile")
                    try await browser.screenshot(to: folder.appendingPathComponent("day-map.png"))
                }
            }
            let unreachable = ServerSettings(rateLimit: 0, adminToken: LiveServer.adminToken, tileURL: "http://127.0.0.1:9/{z}/{x}/{y}.png")
            try await withLiveServer(.sqlite, settings: unreachable) { server in
                try await logInAndShowDay(browser, server)
                #expect(
                    try await browser.wait(for: "document.getElementById('map') ? '' : 'removed'") == "removed",
                    "no tile loads: the map gives way to the drawing")
                try await browser.screenshot(to: folder.appendingPathComponent("day-drawing.png"))
            }
            print("screenshots: \(folder.path)/day-map.png, day-drawing.png")
        } catch {
            await browser.stop()
            throw error
        }
        await browser.stop()
    }
}
