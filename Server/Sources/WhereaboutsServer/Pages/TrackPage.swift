import Foundation
import WhereaboutsCore

/// The HTML pages a person can look at: the device list and one day's track, on a Leaflet map when
/// tiles load and drawn as SVG otherwise.
enum TrackPage {
    static func deviceList(_ devices: [DeviceInfo]) -> String {
        let rows = devices.map { device in
            """
            <tr><td><a href="/devices/\(escape(device.id))">\(escape(device.id))</a></td><td>\(device.locations)</td>\
            <td>\(device.lastSeen.map(Timestamp.format) ?? "never")</td></tr>
            """
        }.joined(separator: "\n")
        return page(
            title: "Whereabouts devices", loggedIn: true,
            body: """
                <h1>Devices</h1>
                <table><thead><tr><th>device</th><th>locations</th><th>last seen</th></tr></thead>
                <tbody>\(rows.isEmpty ? "<tr><td colspan=3>no devices yet: add one with <code>whereabouts-server device add NAME</code></td></tr>" : rows)</tbody></table>
                """)
    }

    /// One device's day: the track, the region transitions on the map and in a list, and the states
    /// found when tracking started listed apart (they are not transitions). With `map`, a Leaflet map
    /// sits above the SVG drawing and replaces it once its first tile has loaded; the drawing stays
    /// when no tile can load. `listLink`: whether the viewer may see the device list.
    static func day(
        device: String, day: Date, records: [LocationRecord], events: [ReceivedEvent], regions: [WireRegion], map: DayMap?, listLink: Bool
    ) -> String {
        let dayText = String(Timestamp.format(day).prefix(10))
        let previous = String(Timestamp.format(day.addingTimeInterval(-86_400)).prefix(10))
        let next = String(Timestamp.format(day.addingTimeInterval(86_400)).prefix(10))
        let link = { (date: String) in "/devices/\(escape(device))?date=\(date)" }
        let transitions = events.filter { !$0.initial }
        let listing = events.map { event -> String in
            let time = Timestamp.format(event.timestamp).dropFirst(11).prefix(8)
            return event.initial
                ? "<li class=\"initial\">\(time) inside \(escape(event.regionID)) when tracking started</li>"
                : "<li>\(time) \(event.kind.rawValue) \(escape(event.regionID))</li>"
        }.joined()
        return page(
            title: "\(device) on \(dayText)", loggedIn: true, head: map == nil ? "" : DayMap.head,
            body: """
                <h1>\(escape(device)) — \(dayText)</h1>
                <p>\(listLink ? "<a href=\"/\">all devices</a> · " : "")<a href="\(link(previous))">\(previous)</a> · <a href="\(link(next))">\(next)</a></p>
                <p>\(records.count) locations, \(transitions.count) region events (times UTC)</p>
                \(map?.html(records: records, events: transitions, regions: regions) ?? "")
                <div id="drawing">\(svg(records: records, events: transitions, regions: regions))</div>
                <ul class="events">\(listing)</ul>
                """)
    }

    /// The track as an SVG polyline in a local flat projection, with start, end and event markers.
    static func svg(
        records: [LocationRecord], events: [ReceivedEvent], regions: [WireRegion] = [], width: Double = 900, height: Double = 600
    ) -> String {
        var points = records.map { ($0.fix.coordinate.latitude, $0.fix.coordinate.longitude) }
        points += events.compactMap { event in event.latitude.flatMap { lat in event.longitude.map { (lat, $0) } } }
        guard !points.isEmpty else {
            return
                "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"120\"><text x=\"20\" y=\"60\">no locations on this day</text></svg>"
        }
        let lats = points.map(\.0)
        let lons = points.map(\.1)
        let midLat = (lats.min()! + lats.max()!) / 2
        let scaleX = cos(midLat * .pi / 180)
        let spanX = max((lons.max()! - lons.min()!) * scaleX, 1e-6)
        let spanY = max(lats.max()! - lats.min()!, 1e-6)
        let margin = 30.0
        let scale = min((width - 2 * margin) / spanX, (height - 2 * margin) / spanY)
        func project(_ lat: Double, _ lon: Double) -> (Double, Double) {
            (margin + (lon - lons.min()!) * scaleX * scale, height - margin - (lat - lats.min()!) * scale)
        }
        let line = records.map { record -> String in
            let (x, y) = project(record.fix.coordinate.latitude, record.fix.coordinate.longitude)
            return String(format: "%.1f,%.1f", x, y)
        }.joined(separator: " ")
        var shapes: [String] = []
        for region in regions
        where (lats.min()!...lats.max()!).contains(region.latitude) && (lons.min()!...lons.max()!).contains(region.longitude) {
            let (x, y) = project(region.latitude, region.longitude)
            shapes.append(
                String(
                    format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\" fill=\"#8250df22\" stroke=\"#8250df\"><title>%@</title></circle>",
                    x, y,
                    max(2, region.radius / 111_320 * scale), escape(region.id)))
        }
        shapes += ["<polyline points=\"\(line)\" fill=\"none\" stroke=\"#1f6feb\" stroke-width=\"3\" stroke-linejoin=\"round\"/>"]
        for (index, record) in [records.first, records.last].enumerated() {
            guard let record else { continue }
            let (x, y) = project(record.fix.coordinate.latitude, record.fix.coordinate.longitude)
            shapes.append(String(format: "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"7\" fill=\"%@\"/>", x, y, index == 0 ? "#2da44e" : "#cf222e"))
        }
        for event in events {
            guard let lat = event.latitude, let lon = event.longitude else { continue }
            let (x, y) = project(lat, lon)
            let color = event.kind == .enter ? "#8250df" : event.kind == .exit ? "#bf8700" : "#57606a"
            shapes.append(
                String(
                    format: "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%@\"><title>%@</title></rect>", x - 5, y - 5,
                    color,
                    escape("\(event.kind.rawValue) \(event.regionID)")))
        }
        let metres = spanX * 111_320
        return """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))">
            <rect width="100%" height="100%" fill="#f6f8fa"/>
            \(shapes.joined(separator: "\n"))
            <text x="\(Int(margin))" y="\(Int(height) - 8)" font-size="13" fill="#57606a">\(Int(metres.rounded())) m across · green start · red end · squares: region events · circles: the device's regions</text>
            </svg>
            """
    }

    /// A whole page; `loggedIn` adds the logout button, `head` goes into `<head>`.
    static func page(title: String, loggedIn: Bool, head: String = "", body: String) -> String {
        let logout = #"<form method="post" action="/logout" class="logout"><button type="submit">Log out</button></form>"#
        return """
            <!doctype html>
            <html><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>\(escape(title))</title>
            <style>body{font-family:sans-serif;margin:2em;color:#24292f}table{border-collapse:collapse}td,th{padding:4px 12px;border-bottom:1px solid #d0d7de;text-align:left}\
            .logout{float:right}label{display:block;margin:.8em 0 .2em}input{width:28em;max-width:100%;padding:4px}.problem{color:#cf222e}</style>
            \(head)
            </head><body>
            \(loggedIn ? logout : "")
            \(body)
            </body></html>
            """
    }

    static func escape(_ text: String) -> String { GPXWriter.escape(text) }
}
