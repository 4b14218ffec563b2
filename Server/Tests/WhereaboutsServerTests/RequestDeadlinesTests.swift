import HTTPTypes
import NIOCore
import Testing

@testable import WhereaboutsServer

@Suite("Request deadlines as a value: events in, actions out")
struct RequestDeadlinesTests {
    private let t0 = NIODeadline.uptimeNanoseconds(1_000_000_000_000)
    private func deadlines() -> RequestDeadlines { RequestDeadlines(headerTimeout: .seconds(10), bodyTimeout: .seconds(60)) }

    @Test("a request read in time: header deadline from its first byte, body deadline from its header, then waiting again")
    func inTime() {
        var d = deadlines()
        #expect(d.bytesArrived(now: t0) == .schedule(t0 + .seconds(10)))
        #expect(d.bytesArrived(now: t0 + .seconds(1)) == RequestDeadlines.Action.none)
        #expect(d.timerFired(now: t0 + .seconds(5)) == .schedule(t0 + .seconds(10)))
        #expect(d.headerRead(method: .post, now: t0 + .seconds(2)) == .schedule(t0 + .seconds(62)))
        #expect(d.bodyRead() == .awaitNextRequest)
        #expect(d.timerFired(now: t0 + .seconds(100)) == RequestDeadlines.Action.none)
        #expect(d.answerStarted() == false)
        #expect(d.answerEnded() == false)
        #expect(d.bytesArrived(now: t0 + .seconds(200)) == .schedule(t0 + .seconds(210)))
    }

    @Test("a header not complete in time is answered 408; so is a body, unless an answer is being written")
    func late() {
        var header = deadlines()
        _ = header.bytesArrived(now: t0)
        #expect(header.timerFired(now: t0 + .seconds(10)) == .answerTimeoutAndClose)

        var body = deadlines()
        _ = body.bytesArrived(now: t0)
        _ = body.headerRead(method: .post, now: t0)
        #expect(body.timerFired(now: t0 + .seconds(60)) == .answerTimeoutAndClose)

        var answering = deadlines()
        _ = answering.bytesArrived(now: t0)
        _ = answering.headerRead(method: .post, now: t0)
        _ = answering.answerStarted()
        #expect(answering.timerFired(now: t0 + .seconds(61)) == .close)
    }

    @Test(
        "an answer written before its request's body was read ends the connection, and says so; so does CONNECT's",
        arguments: [(HTTPRequest.Method.post, false), (.connect, true)])
    func closesAfterAnswer(method: HTTPRequest.Method, bodyRead: Bool) {
        var d = deadlines()
        _ = d.bytesArrived(now: t0)
        _ = d.headerRead(method: method, now: t0)
        if bodyRead { _ = d.bodyRead() }
        #expect(d.answerStarted() == true)
        #expect(d.answerEnded() == true)
    }

    @Test("pipelined requests: an older answer does not close the connection while a newer body is read")
    func pipelined() {
        var d = deadlines()
        _ = d.bytesArrived(now: t0)
        _ = d.headerRead(method: .get, now: t0)
        _ = d.bodyRead()
        _ = d.bytesArrived(now: t0)
        _ = d.headerRead(method: .post, now: t0)
        #expect(d.answerStarted() == false)
        #expect(d.answerEnded() == false)
        #expect(d.timerFired(now: t0 + .seconds(60)) == .answerTimeoutAndClose)
    }
}
