import Foundation
import Testing
import Whereabouts
import WhereaboutsApple
import WhereaboutsCore
import WhereaboutsDelivery
import WhereaboutsTestServer
import WhereaboutsTestSupport

@Suite("Background refresh and background uploads")
@MainActor
struct BackgroundTests {
    let identifier = "whereabouts.refresh"

    @Test("a refresh with tracking off is skipped and logged; the next one is scheduled")
    func refreshWhileOff() async throws {
        let app = PhoneApp(at: home)
        try app.launch()
        try await app.engine.launch(.user)
        let scheduler = RecordingScheduler()
        let refresh = BackgroundRefreshTask(
            identifier: identifier, engine: app.engine, scheduler: scheduler, setup: app.setup, log: app.lines.log)
        #expect(refresh.register())
        #expect(!refresh.register(), "the scheduler refuses a second registration")
        let run = scheduler.run(identifier)
        #expect(await soon { run.completed == [true] })
        #expect(app.lines.messages(.background) == ["refresh skipped: tracking is off"])
        #expect(scheduler.submissions == [identifier], "every run schedules the next")
        #expect(app.oneShot.oneShots == 0, "no fix is taken")
        await app.kill()
    }

    @Test("a refresh with tracking on takes one fix and uploads it")
    func refreshWhileTracking() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let app = PhoneApp(at: home)
        app.mode = .manual
        try app.launch(uploadTo: server.baseURL)
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .manual)
        let scheduler = RecordingScheduler()
        let refresh = BackgroundRefreshTask(
            identifier: identifier, engine: app.engine, scheduler: scheduler, setup: app.setup, runDuration: 10, log: app.lines.log)
        refresh.register()
        let before = app.oneShot.oneShots
        let run = scheduler.run(identifier)
        #expect(await soon { run.completed == [true] })
        #expect(app.oneShot.oneShots == before + 1, "one fix")
        let message = try #require(app.lines.messages(.background).first)
        #expect(message == "refresh ran: fix taken, 1 delivered, 0 still pending")
        #expect(await server.state.locations.count == 1)
        run.expire()
        #expect(run.completed == [true], "a run is completed once")
        await app.kill()
    }

    @Test("a run the system expires first is reported unsuccessful, once")
    func expiredRun() async throws {
        let app = PhoneApp(at: home)
        app.mode = .manual
        // No fix ever comes, so the run cannot finish before the system expires it.
        app.os.answersOneShots = false
        try app.launch(uploadTo: URL(string: "http://127.0.0.1:9")!)
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .manual)
        let scheduler = RecordingScheduler()
        let refresh = BackgroundRefreshTask(
            identifier: identifier, engine: app.engine, scheduler: scheduler, setup: app.setup, runDuration: 30, log: app.lines.log)
        refresh.register()
        let run = scheduler.run(identifier)
        run.expire()
        #expect(run.completed == [false])
        #expect(await soon { app.lines.messages(.background).contains("refresh expired before it finished") })
        await app.kill()
    }

    @Test("an upload that finishes after the app was suspended delivers its records")
    func uploadAfterSuspension() async throws {
        let server = try await TestServer.start()
        defer { Task { await server.stop() } }
        let session = SuspendingSession()
        let folder = temporaryFolder("uploads")
        let transport = BackgroundUploadTransport(identifier: "uploads", directory: folder, log: LogLines().log) {
            session.exchanges = $0
            return session
        }
        let app = PhoneApp(at: home)
        app.mode = .manual
        // The reply waits for `resumeAll` below: on a loaded machine the steps before it took more than
        // the 10 s other tests give a reply, and the flush gave the upload up before it came.
        try app.launch(uploadTo: server.baseURL, transport: transport, requestTimeout: 120)
        try await app.engine.launch(.user)
        try await app.engine.start(mode: .manual)
        try await app.engine.requestLocationUpdate()
        let engine = try #require(app.engine)
        #expect(try await soon { try await engine.pendingLocations().count == 1 })
        let flush = Task { await engine.flush() }
        #expect(await soon { session.waiting == 1 }, "the upload is handed to the system")
        #expect(await server.state.locations.isEmpty, "the app is suspended: nothing has been sent yet")

        var finished = false
        #expect(transport.handleEvents(forBackgroundURLSession: "uploads") { finished = true })
        #expect(!transport.handleEvents(forBackgroundURLSession: "another") {})
        try await session.resumeAll()
        let report = try #require(await flush.value)
        #expect(report.delivered == 1)
        #expect(try await engine.pendingLocations().isEmpty)
        #expect(await server.state.locations.count == 1)
        #expect(await soon { finished }, "the app delegate's completion handler is called")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).isEmpty, "the body file is removed")
        await app.kill()
    }

    @Test("a relaunched app's completion handler, handed over after the session delivered its events, is called at once")
    func handlerAfterEvents() async {
        let session = SuspendingSession()
        let transport = BackgroundUploadTransport(identifier: "uploads", directory: temporaryFolder("uploads"), log: LogLines().log) {
            session.exchanges = $0
            return session
        }
        // The session, created while the app finished launching, delivers its events before UIKit
        // calls the app delegate with the handler.
        transport.exchanges.finishedDeliveringEvents()
        try? await Task.sleep(nanoseconds: 50_000_000)
        var calls = 0
        #expect(transport.handleEvents(forBackgroundURLSession: "uploads") { calls += 1 })
        #expect(await soon { calls == 1 })
        #expect(transport.handleEvents(forBackgroundURLSession: "uploads") { calls += 1 })
        try? await Task.sleep(nanoseconds: 50_000_000)
        #expect(calls == 1, "the next wake's handler waits for that wake's events")
    }

    @Test("a reply for an upload no one awaits (an earlier process's) removes its file and is logged")
    func orphanReply() throws {
        let lines = LogLines()
        let session = SuspendingSession()
        let transport = BackgroundUploadTransport(identifier: "uploads", directory: temporaryFolder("uploads"), log: lines.log) {
            session.exchanges = $0
            return session
        }
        let orphan = temporaryFolder("orphan").appendingPathComponent("body")
        try Data("{}".utf8).write(to: orphan)
        transport.exchanges.completed(taskDescription: orphan.path, status: 200, headers: [:], error: nil)
        #expect(!FileManager.default.fileExists(atPath: orphan.path))
        #expect(lines.messages(.upload).count == 1)
    }
}

/// A background session while the app is suspended: it holds each upload until ``resumeAll()``, then
/// sends it to the server for real and reports the reply through the delegate, as the system's transfer
/// service does when the app runs again.
final class SuspendingSession: BackgroundUploadSession, @unchecked Sendable {
    private let lock = NSLock()
    private var held: [(request: OutgoingRequest, timeout: TimeInterval, file: URL, description: String)] = []
    var exchanges: UploadExchanges?

    var waiting: Int { lock.withLock { held.count } }

    func upload(_ request: OutgoingRequest, timeout: TimeInterval, fromFile file: URL, taskDescription: String) {
        lock.withLock { held.append((request, timeout, file, taskDescription)) }
    }

    func resumeAll() async throws {
        let uploads = lock.withLock {
            defer { held = [] }
            return held
        }
        for upload in uploads {
            var request = upload.request
            request.body = try Data(contentsOf: upload.file)
            let reply = try await URLSessionTransport().send(request, timeout: upload.timeout)
            exchanges?.received(reply.body, taskDescription: upload.description)
            exchanges?.completed(taskDescription: upload.description, status: reply.status, headers: reply.headers, error: nil)
        }
        exchanges?.finishedDeliveringEvents()
    }
}
