import Foundation
import Testing

@testable import WhereaboutsCore

@Suite("Fix watch: whether fixes watched without a break for as long as the OS takes to report")
struct FixWatchTests {
    @Test("a run of fixes at most 30 s apart covers the time since its first fix, while its last is fresh")
    func runs() {
        var watch = FixWatch()
        #expect(!watch.covers(0, before: time(0)), "no fix yet")
        for t in stride(from: 0.0, through: 200, by: 10) { watch.note(time(t)) }
        #expect(watch.covers(180, before: time(200)))
        #expect(watch.covers(180, before: time(230)), "the last fix is 30 s old")
        #expect(!watch.covers(180, before: time(231)), "fixes stopped: a crossing since would go unseen")
        #expect(!watch.covers(201, before: time(200)))
    }

    @Test("a break longer than 30 s starts a new run; a late fix does not move the run back")
    func breaks() {
        var watch = FixWatch()
        watch.note(time(0))
        watch.note(time(30))
        watch.note(time(61))
        #expect(watch.since == time(61))
        watch.note(time(50))
        #expect(watch.since == time(61) && watch.last == time(61))
        #expect(!watch.covers(180, before: time(200)))
    }
}
