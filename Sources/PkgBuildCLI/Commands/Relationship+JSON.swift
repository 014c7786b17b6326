import Geodatabase
import Geometry

extension Relationship {
    /// The relationship as `source relate --json` and `source status --json` print it.
    var jsonValue: JSONValue {
        var members = [
            JSONMember("name", .string(name)),
            JSONMember("origin", .object(["table": .string(originTable), "key": .string(originKey)])),
            JSONMember("destination", .object(["table": .string(destinationTable), "key": .string(destinationKey)])),
            JSONMember("cardinality", .string(cardinality.rawValue)),
        ]
        switch storage {
        case .keys:
            members.append(JSONMember("storage", "keys"))
        case .mappingTable(let table, let relationName):
            members.append(JSONMember("storage", "mapping-table"))
            members.append(JSONMember("mapping_table", .string(table)))
            members.append(JSONMember("relation_name", .string(relationName)))
        }
        return .object(members)
    }
}
