import Foundation
import Testing
import WhereaboutsCore

/// The per-region rule on its own, case by case: `GeofenceOracleTests` holds the fast engine to a
/// reference engine that applies this same rule, so the rule's own behaviour is pinned here.
///
/// The region is 200 m (hysteresis 25 m). A 5 m fix shows inside at 25 m or more inside the outline
/// and outside at 25 m or more beyond it; a 50 m fix (margin 22.5 m) shows outside from 47.5 m, is
/// firm from 75 m (a whole accuracy beyond the band) and decisive on its own only from 125 m (two
/// accuracies); inside likewise, from 47.5 m, 75 m and 125 m within.
@Suite("Geofence rule: one region's state on fixes and OS crossings")
struct GeofenceRuleTests {
    private typealias Rule = GeofenceRule
    private let size = 200.0
    private let inside = Rule.Status(side: .inside)

    private func fix(_ status: Rule.Status, at s: Double, accuracy: Double = 5) -> Rule.Outcome {
        Rule.fix(status, signedDistance: s, accuracy: accuracy, size: size)
    }

    @Test("an undetermined region: a fix inside reports an initial enter, outside reports nothing, the band settles nothing")
    func undetermined() {
        let entered = fix(.undetermined, at: -50)
        #expect(entered.status.side == .inside && entered.transition?.kind == .enter && entered.transition?.initial == true)
        let outside = fix(.undetermined, at: 50)
        #expect(outside.status.side == .outside && outside.transition == nil)
        let band = fix(.undetermined, at: 0)
        #expect(band.status.side == nil && band.transition == nil)
        #expect(Rule.unreached(.undetermined).side == .outside, "a fix that does not reach it settles it outside")
        let coarse = fix(.undetermined, at: -150, accuracy: 300)
        #expect(coarse.status.side == nil, "a fix coarser than the region is no evidence of being inside")
    }

    @Test("inside: a decisive fix outside exits; a fix in the hysteresis band changes nothing")
    func decisive() {
        let exited = fix(inside, at: 125, accuracy: 50)
        #expect(exited.status.side == .outside && exited.transition?.kind == .exit && exited.transition?.initial == false)
        let entered = fix(.init(side: .outside), at: -125, accuracy: 50)
        #expect(entered.transition?.kind == .enter, "an entry, like an exit, needs two accuracies beyond the band")
        let fine = fix(inside, at: 30)
        #expect(fine.transition?.kind == .exit, "a 5 m fix is decisive")
        let band = fix(inside, at: 10)
        #expect(band.status == inside && band.transition == nil)
    }

    @Test("a coarse fix outside is kept pending: the next agreeing fix exits, a disagreeing or unreaching one drops it")
    func pending() {
        let first = fix(inside, at: 60, accuracy: 50)
        #expect(first.status.side == .inside && first.status.pending == .outside && first.transition == nil && first.undecided)
        let confirmed = fix(first.status, at: 60, accuracy: 50)
        #expect(confirmed.status.side == .outside && confirmed.status.pending == nil && confirmed.transition?.kind == .exit)
        let contradicted = fix(first.status, at: -50)
        #expect(contradicted.status == inside && contradicted.transition == nil)
        #expect(Rule.unreached(first.status) == inside)
        let silent = fix(first.status, at: 10)
        #expect(silent.status.pending == .outside && silent.undecided, "a fix that says nothing keeps the evidence")
    }

    @Test("a coarse fix one accuracy inside the band, short of two, awaits the next fix: a graze's one noisy fix enters nothing")
    func firmInside() {
        let outside = Rule.Status(side: .outside)
        let first = fix(outside, at: -80, accuracy: 50)
        #expect(first.status.pending == .inside && first.transition == nil && !first.undecided)
        let confirmed = fix(first.status, at: -60, accuracy: 50)
        #expect(confirmed.transition?.kind == .enter, "a second coarse fix agreeing enters")
        let contradicted = fix(first.status, at: 60)
        #expect(contradicted.status == outside && contradicted.transition == nil)
    }

    @Test("a coarse fix one accuracy beyond the band, short of two, awaits the next fix without asking for a finer one")
    func firm() {
        let first = fix(inside, at: 124, accuracy: 50)
        #expect(first.status.pending == .outside && first.transition == nil && !first.undecided)
        let confirmed = fix(first.status, at: 80, accuracy: 50)
        #expect(confirmed.transition?.kind == .exit, "a second coarse fix agreeing exits")
        let contradicted = fix(first.status, at: -60, accuracy: 50)
        #expect(contradicted.status == inside && contradicted.transition == nil)
        let nearer = fix(inside, at: 74, accuracy: 50)
        #expect(nearer.status.pending == .outside && nearer.undecided, "inside one accuracy of the band a finer fix is wanted")
        #expect(TransitionRule.strength(of: .outside, signedDistance: 75, accuracy: 50, size: size) == .firm)
        #expect(TransitionRule.strength(of: .outside, signedDistance: 125, accuracy: 50, size: size) == .decisive)
        #expect(TransitionRule.strength(of: .outside, signedDistance: 30, accuracy: 20, size: size) == .decisive, "a fine fix")
        #expect(TransitionRule.strength(of: .inside, signedDistance: -125, accuracy: 50, size: size) == .decisive)
        #expect(TransitionRule.strength(of: .inside, signedDistance: -75, accuracy: 50, size: size) == .firm)
        #expect(TransitionRule.strength(of: .inside, signedDistance: -74, accuracy: 50, size: size) == .tentative)
    }

    @Test("a fix in the band asks for a finer one from the undecided depth past the outline: at 1 only where an exact fix would decide")
    func undecidedDepth() {
        let outside = Rule.Status(side: .outside)
        func asks(_ status: Rule.Status, at s: Double, depth: Double) -> Bool {
            Rule.fix(status, signedDistance: s, accuracy: 5, size: size, undecidedDepth: depth).undecided
        }
        // Crossing into the band of a 200 m region (hysteresis 25 m) on 5 m fixes, which show inside from 25 m.
        #expect(!asks(outside, at: -10, depth: 1) && !asks(outside, at: -10, depth: 0.5) && asks(outside, at: -10, depth: 0))
        #expect(!asks(outside, at: -12, depth: 0.5) && asks(outside, at: -12.5, depth: 0.5), "halfway into the band")
        #expect(!asks(outside, at: 0, depth: 0) && !asks(outside, at: 10, depth: 0), "short of the outline nothing is asked")
        #expect(!asks(inside, at: 10, depth: 1) && asks(inside, at: 10, depth: 0) && !asks(inside, at: -10, depth: 0), "leaving")
        #expect(asks(.undetermined, at: -10, depth: 0) && !asks(.undetermined, at: 10, depth: 0), "undetermined asks as outside")
        #expect(Rule.fix(outside, signedDistance: -30, accuracy: 5, size: size, undecidedDepth: 0).transition?.kind == .enter)
        let wifi = Rule.fix(outside, signedDistance: -30, accuracy: 50, size: size)
        #expect(wifi.transition == nil && wifi.undecided, "a 50 m fix 30 m inside is no evidence (margin 22.5 m) and asks at depth 1")
        // At depth 1 the rule asks exactly where a fix without error would show the other side.
        for s in stride(from: -60.0, through: 60, by: 0.5) {
            let exact = TransitionRule.evidence(signedDistance: s, accuracy: 0, size: size)
            for side in [RegionState.outside, .inside] {
                let asks = Rule.asksFinerFix(side, signedDistance: s, size: size, undecidedDepth: 1)
                #expect(asks == (exact != nil && exact != side), "at \(s)")
            }
        }
    }

    @Test("an OS crossing is trusted: it changes the side, reports the crossing, and drops pending evidence")
    func osCrossing() {
        let exited = Rule.osCrossing(inside, to: .outside)
        #expect(exited.status.side == .outside && exited.transition?.kind == .exit)
        let pending = fix(inside, at: 60, accuracy: 50).status
        let same = Rule.osCrossing(pending, to: .inside)
        #expect(same.status == inside && same.transition == nil)
        let found = Rule.osCrossing(.undetermined, to: .inside)
        #expect(found.transition?.kind == .enter && found.transition?.initial == true)
    }

    @Test("an OS crossing of a kind fixes reported within the fix precedence is their echo; older or other kinds are not")
    func osEcho() {
        let t0 = Date(timeIntervalSince1970: 1_750_000_000)
        var crossings = Rule.FixCrossings()
        crossings[.enter] = t0
        crossings[.exit] = t0.addingTimeInterval(60)
        #expect(Rule.crossingEchoes(crossings, crossing: .inside, at: t0.addingTimeInterval(Rule.fixPrecedence)))
        #expect(!Rule.crossingEchoes(crossings, crossing: .inside, at: t0.addingTimeInterval(Rule.fixPrecedence + 1)))
        #expect(Rule.crossingEchoes(crossings, crossing: .outside, at: t0.addingTimeInterval(200)))
        var entered = Rule.FixCrossings()
        entered[.enter] = t0
        #expect(!Rule.crossingEchoes(entered, crossing: .outside, at: t0.addingTimeInterval(10)), "no exit was reported")
        #expect(!Rule.crossingEchoes(nil, crossing: .inside, at: t0))
    }

    @Test("the dwell falls due once per stay, only inside and only with a loitering delay")
    func dwell() {
        let since = Date(timeIntervalSince1970: 1_750_000_000)
        #expect(Rule.dwellDue(inside, since: since, loiteringDelay: 300) == since.addingTimeInterval(300))
        #expect(Rule.dwellDue(Rule.dwellReported(inside), since: since, loiteringDelay: 300) == nil)
        #expect(Rule.dwellDue(Rule.Status(side: .outside), since: since, loiteringDelay: 300) == nil)
        #expect(Rule.dwellDue(inside, since: since, loiteringDelay: nil) == nil)
        let reentered = fix(fix(Rule.dwellReported(inside), at: 100).status, at: -50)
        #expect(reentered.transition?.kind == .enter && !reentered.status.dwelt, "a new stay dwells anew")
    }
}
