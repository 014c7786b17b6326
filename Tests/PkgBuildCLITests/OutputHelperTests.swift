import Testing
@testable import PkgBuildCLI

@Suite struct TextTableTests {
    @Test func columnsAlignAndTrailingSpacesAreTrimmed() {
        var table = TextTable(columns: [.init("LAYER"), .init("FEATURES", alignment: .right),
                                        .init("CRS")])
        table.append(["parks", "412", "EPSG:4326"])
        table.append(["airports", "7"])
        table.append(["visitors", "1200000", "", "dropped"])
        #expect(table.rendered == """
            LAYER     FEATURES  CRS
            parks          412  EPSG:4326
            airports         7
            visitors   1200000

            """)
    }
}

/// A clock the test moves by hand.
private final class ManualClock: @unchecked Sendable {
    var seconds = 100.0
}

@Suite struct ProgressBarTests {
    @Test func lineShowsCountsRateAndETA() {
        let half = ProgressBar.line(label: "tiles", done: 512, total: 1024, elapsed: 8, width: 60)
        #expect(half == "tiles [##########..........]  512/1024  50%  64/s  ETA 0:08")
        #expect(half.count == 59)  // one column spare: a full-width line wraps some terminals
        #expect(ProgressBar.line(label: "tiles", done: 1024, total: 1024, elapsed: 16, width: 60)
                == "tiles [######################]  1024/1024  100%  64/s  0:16")
        #expect(ProgressBar.line(label: "rows", done: 0, total: 10, elapsed: 0, width: 60)
                == "rows [........................]  0/10  0%  0.0/s  ETA --:--")
        #expect(ProgressBar.line(label: "rows", done: 5, total: 0, elapsed: 2) == "rows  5  2.5/s")
    }

    @Test func durationsAndRates() {
        #expect(ProgressBar.formatDuration(6) == "0:06")
        #expect(ProgressBar.formatDuration(754) == "12:34")
        #expect(ProgressBar.formatDuration(3723) == "1:02:03")
        #expect(ProgressBar.formatRate(12_345) == "12.3k")
        #expect(ProgressBar.formatRate(4_100_000) == "4.1M")
    }

    @Test func silentWhenNotATerminal() {
        let stderr = CapturedOutput()
        let context = CommandContext(stdout: CapturedOutput(), stderr: stderr, isTerminal: false)
        let bar = ProgressBar(label: "tiles", total: 10, context: context)
        bar.advance(by: 10)
        bar.finish()
        #expect(stderr.text == "")
    }

    @Test func drawsOnATerminalAtMostTenTimesASecond() {
        let stderr = CapturedOutput()
        let context = CommandContext(stdout: CapturedOutput(), stderr: stderr, isTerminal: true,
                                     environment: ["COLUMNS": "60"])
        let clock = ManualClock()
        let bar = ProgressBar(label: "tiles", total: 4, context: context, clock: { clock.seconds })
        bar.advance()          // drawn: the first update
        bar.advance()          // same instant: skipped
        clock.seconds += 1
        bar.advance(by: 2)     // drawn
        bar.finish()           // always drawn, then a newline
        let draws = stderr.text.components(separatedBy: "\r").filter { !$0.isEmpty }
        #expect(draws.count == 3)
        #expect(draws.last == "tiles [###########################]  4/4  100%  4.0/s  0:01\u{1B}[K\n")
        bar.finish()
        #expect(stderr.text.components(separatedBy: "\r").filter { !$0.isEmpty }.count == 3)
    }
}
