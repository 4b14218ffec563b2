import Foundation
import WhereaboutsCore

/// The Leaflet map of the day page: Leaflet itself and the page's script are served by the server
/// (``PageAssets``), the tiles come from ``tileURL``. The track, the events and the regions travel
/// in the page as JSON; `day-map.js` draws them, hides the SVG drawing once a tile has loaded, and
/// removes the map again when no tile loads, leaving the drawing.
struct DayMap: Sendable {
    /// The tile URL template, with `{z}`, `{x}`, `{y}` and optionally `{s}`.
    let tileURL: String
    /// The tile provider's attribution.
    let attribution: String

    /// Leaflet's style sheet, for the page's head.
    static let head = #"<link rel="stylesheet" href="/assets/leaflet/leaflet.css">"#

    /// The map's container, its data and its scripts.
    func html(records: [LocationRecord], events: [ReceivedEvent], regions: [WireRegion]) -> String {
        let data = MapData(
            tiles: tileURL, attribution: attribution,
            track: records.map { [$0.fix.coordinate.latitude, $0.fix.coordinate.longitude] },
            events: events.compactMap { event in
                guard let lat = event.latitude, let lon = event.longitude else { return nil }
                return MapData.Event(
                    latitude: lat, longitude: lon, label: "\(event.kind.rawValue) \(event.regionID)", kind: event.kind.rawValue)
            },
            regions: regions.map { MapData.Region(latitude: $0.latitude, longitude: $0.longitude, radius: $0.radius, label: $0.id) })
        let json = Self.embeddable(String(decoding: (try? JSONEncoder().encode(data)) ?? Data("{}".utf8), as: UTF8.self))
        return """
            <div id="map" style="height:600px;max-width:900px;border:1px solid #d0d7de"></div>
            <script id="map-data" type="application/json">\(json)</script>
            <script src="/assets/leaflet/leaflet.js"></script>
            <script src="/assets/day-map.js"></script>
            """
    }

    /// `json` as the content of a `<script>` element: `<`, `>` and `&`, which only a JSON string can
    /// hold, written as `\u003c`, `\u003e` and `\u0026` (`JSONEncoder` already writes `/` as `\/`),
    /// so no region id or label (`<!--<script>`, `</script>`) can change how the HTML tokenizer reads
    /// the block and the page after it.
    static func embeddable(_ json: String) -> String {
        json.replacingOccurrences(of: "&", with: "\\u0026").replacingOccurrences(of: "<", with: "\\u003c")
            .replacingOccurrences(of: ">", with: "\\u003e")
    }

    /// The `img-src` sources the page's Content-Security-Policy allows for tiles: the tile URL's origin,
    /// `{s}` standing for any subdomain.
    var tileOrigin: String {
        let withoutScheme = tileURL.split(separator: "/", maxSplits: 3, omittingEmptySubsequences: false)
        guard withoutScheme.count >= 3 else { return "" }
        return "\(withoutScheme[0])//\(withoutScheme[2])".replacingOccurrences(of: "{s}", with: "*")
    }

    private struct MapData: Encodable {
        struct Event: Encodable {
            let latitude, longitude: Double
            let label, kind: String
        }
        struct Region: Encodable {
            let latitude, longitude, radius: Double
            let label: String
        }
        let tiles, attribution: String
        let track: [[Double]]
        let events: [Event]
        let regions: [Region]
    }

    /// `day-map.js`. `document.body.dataset.map` tells what the page shows: `tiles` once a tile has
    /// loaded, `drawing` when the map gave up (no Leaflet, no tiles configured, tiles failing or not
    /// arriving within 8 s), with the reason in `dataset.mapReason`.
    static let script = #"""
        (function () {
          var data = JSON.parse(document.getElementById('map-data').textContent);
          var container = document.getElementById('map'), drawing = document.getElementById('drawing');
          var loaded = 0, failed = 0, settled = false;
          function showDrawing(reason) {
            if (settled) return;
            settled = true;
            container.remove();
            drawing.style.display = '';
            document.body.dataset.map = 'drawing';
            document.body.dataset.mapReason = reason;
          }
          if (!window.L) return showDrawing('leaflet-missing');
          if (data.track.length === 0 && data.events.length === 0) return showDrawing('nothing-to-show');
          var map = L.map(container, { zoomSnap: 0.25 });
          var tiles = L.tileLayer(data.tiles, { attribution: data.attribution, maxZoom: 19 });
          tiles.on('tileload', function () {
            loaded += 1;
            if (loaded === 1 && !settled) {
              settled = true;
              drawing.style.display = 'none';
              document.body.dataset.map = 'tiles';
            }
          });
          tiles.on('tileerror', function () {
            failed += 1;
            if (loaded === 0 && failed >= 2) showDrawing('tiles-failed');
          });
          var shapes = [];
          data.regions.forEach(function (r) {
            shapes.push(L.circle([r.latitude, r.longitude], { radius: r.radius, color: '#8250df', weight: 2, fillOpacity: 0.1 }).bindTooltip(r.label));
          });
          if (data.track.length > 0) {
            shapes.push(L.polyline(data.track, { color: '#1f6feb', weight: 4 }));
            shapes.push(L.circleMarker(data.track[0], { radius: 7, color: '#2da44e', fillOpacity: 1 }).bindTooltip('start'));
            shapes.push(L.circleMarker(data.track[data.track.length - 1], { radius: 7, color: '#cf222e', fillOpacity: 1 }).bindTooltip('end'));
          }
          data.events.forEach(function (e) {
            var color = e.kind === 'enter' ? '#8250df' : e.kind === 'exit' ? '#bf8700' : '#57606a';
            shapes.push(L.circleMarker([e.latitude, e.longitude], { radius: 6, color: color, fillOpacity: 1 }).bindTooltip(e.label));
          });
          var group = L.featureGroup(shapes).addTo(map);
          map.fitBounds(group.getBounds(), { padding: [20, 20], maxZoom: 17 });
          tiles.addTo(map);
          setTimeout(function () { if (loaded === 0) showDrawing('tiles-timeout'); }, 8000);
        })();
        """#
}
