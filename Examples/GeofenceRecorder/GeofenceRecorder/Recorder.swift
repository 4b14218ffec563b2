import Foundation
import Observation
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore
import WhereaboutsStore

/// The app's one engine, and what the screen shows: a status line and the region events so far.
@MainActor
@Observable
final class Recorder {
    static let shared = Recorder()

    let engine: LocationEngine
    let refresh: BackgroundRefreshTask
    let notifier: RegionNotifier
    private(set) var status = "Tap the button to watch 100 m around you."
    private(set) var events: [RegionEvent] = []

    private init() {
        let folder = URL.applicationSupportDirectory
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let store = try SQLiteLocationStore(path: folder.appending(path: "recorder.sqlite").path)
            engine = LocationEngine(store: store, service: CoreLocationService(), configuration: TrackerConfiguration(mode: .significant))
        } catch {
            fatalError("the recorder's store cannot be opened in \(folder.path): \(error)")
        }
        refresh = BackgroundRefreshTask(identifier: "com.example.geofencerecorder.refresh", engine: engine)
        notifier = RegionNotifier(engine: engine, kinds: [.exit])
    }

    /// Takes a fresh position and watches a 100 m circle around it.
    func watchHere() async {
        do {
            try await engine.start(mode: .significant)
            let fixes = engine.locations()
            try await engine.requestLocationUpdate()
            await Self.firstFix(of: fixes, within: .seconds(20))
            guard let fix = await engine.currentLocation() else {
                status = "No position yet; allow location access and try again."
                return
            }
            let id = "watch-\(Int(fix.timestamp.timeIntervalSince1970))"
            try await engine.addRegions([Region(id: id, center: fix.coordinate, radius: 100)])
            status = String(format: "Watching %@: 100 m around %.5f, %.5f.", id, fix.coordinate.latitude, fix.coordinate.longitude)
        } catch {
            status = "\(error)"
        }
    }

    /// Lists the stored region events, then each new one as it happens.
    func follow() async {
        do {
            events = try await engine.recordedRegionEvents().filter { !$0.initial }
        } catch {
            status = "\(error)"
        }
        for await event in engine.regionEvents() where !event.initial {
            events.append(event)
        }
    }

    /// Waits for the next stored record, at most `limit`.
    private static func firstFix(of fixes: AsyncStream<LocationRecord>, within limit: Duration) async {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await _ in fixes { return } }
            group.addTask { try? await Task.sleep(for: limit) }
            await group.next()
            group.cancelAll()
        }
    }
}
