import Foundation
import PkgBuildCLI

exit(PkgBuild.main(arguments: Array(CommandLine.arguments.dropFirst())))
