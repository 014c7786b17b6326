import Geometry
import Testing
import PkgBuildCLI

@Suite struct HelpTests {
    static let rootHelp = """
        OVERVIEW: Test root.

        USAGE: pkgbuild <subcommand>

        OPTIONS:
          --version               Show the version.
          -h, --help              Show help information.

        SUBCOMMANDS:
          echo                    Print the parsed arguments.
          source                  Manage source geodatabases.
          fail                    Fail on purpose.
          help                    Show subcommand help information.

          See 'pkgbuild help <subcommand>' for detailed help.

        """

    @Test(arguments: [[], ["--help"], ["-h"], ["help"], ["help", "help"]])
    func rootHelp(arguments: [String]) {
        let result = CLI.run(arguments, root: TestRoot.self)
        #expect(result.exitCode == 0)
        #expect(result.stdout == Self.rootHelp)
        #expect(result.stderr == "")
    }

    @Test func version() {
        let result = CLI.run(["--version"], root: TestRoot.self)
        #expect(result.exitCode == 0)
        #expect(result.stdout == "9.9.9\n")
        #expect(CLI.run(["--version"]).stdout == PkgBuildVersion.current + "\n")
    }

    static let echoHelp = """
        OVERVIEW: Print the parsed arguments.

        Used by the parser's tests.

        USAGE: pkgbuild echo <AREA.pkg> [<extra> ...] --area <bbox> [--at <lon,lat>]
          [--zoom <range>] [--concurrency <n>] [--layer <name> ...]
          [--header <K: V> ...] [--set <field=value> ...] [--output <path>] [--dry-run]
          [--json]

        ARGUMENTS:
          <AREA.pkg>              The package.
          <extra>                 More values.

        OPTIONS:
          --area <bbox>           Area of interest: minx,miny,maxx,maxy.
          --at <lon,lat>          A point.
          --zoom <range>          Zoom levels. (default: 0-12)
          --concurrency <n>       Parallel downloads. (default: 4)
          --layer <name>          A layer to include. (may be repeated)
          --header <K: V>         An HTTP header. (may be repeated)
          --set <field=value>     A value to set. (may be repeated)
          -o, --output <path>     Where to write.
          --dry-run               Plan only.
          --json                  Print JSON.
          -q, --quiet             Print only results, warnings and errors; no progress.
          -v, --verbose           Also print details: inputs as resolved, steps, times.
          -h, --help              Show help information.

        """

    @Test(arguments: [["echo", "--help"], ["echo", "-h"], ["help", "echo"],
                      ["echo", "--area", "1,2,3,4", "--help"]])
    func leafHelp(arguments: [String]) {
        let result = CLI.run(arguments, root: TestRoot.self)
        #expect(result.exitCode == 0)
        #expect(result.stdout == Self.echoHelp)
    }

    @Test(arguments: [["source"], ["source", "--help"], ["help", "source"]])
    func groupHelp(arguments: [String]) {
        let result = CLI.run(arguments, root: TestRoot.self)
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            OVERVIEW: Manage source geodatabases.

            USAGE: pkgbuild source <subcommand>

            OPTIONS:
              -h, --help              Show help information.

            SUBCOMMANDS:
              enable                  Make a geodatabase sync-ready.
              status                  Show a source's sync state.

              See 'pkgbuild help source <subcommand>' for detailed help.

            """)
    }

    @Test(arguments: [["source", "enable", "--help"], ["help", "source", "enable"]])
    func nestedHelp(arguments: [String]) {
        let result = CLI.run(arguments, root: TestRoot.self)
        #expect(result.exitCode == 0)
        #expect(result.stdout == """
            OVERVIEW: Make a geodatabase sync-ready.

            USAGE: pkgbuild source enable <SRC.gpkg> [--force]

            ARGUMENTS:
              <SRC.gpkg>              The source geodatabase.

            OPTIONS:
              -f, --force             Enable again even if already enabled.
              -q, --quiet             Print only results, warnings and errors; no progress.
              -v, --verbose           Also print details: inputs as resolved, steps, times.
              -h, --help              Show help information.

            """)
    }

    @Test func longHelpWrapsAt80Columns() {
        let text = CLI.run(["help", "echo"], root: TestRoot.self).stdout
        for line in text.split(separator: "\n") {
            #expect(line.count <= 80, "\(line)")
        }
    }
}
