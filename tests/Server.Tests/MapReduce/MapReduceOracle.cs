using System.Globalization;
using System.Text;
using System.Text.Json;
using Folio.Server.Tests.Queries;
using Microsoft.Data.Sqlite;

namespace Folio.Server.Tests.MapReduce;

/// <summary>
/// SQLite's answer to a <see cref="ReduceSpec"/>: the documents in a table of JSON, a table of map entries
/// made with <c>json_each</c> (one row per item of the fanned-out array, one null row for a document
/// without it, none for an empty one), and a <c>GROUP BY</c> per aggregation over the values
/// <c>json_extract</c> and <c>json_each</c> find. Group values become comparable keys
/// (<see cref="KeyOf(JsonElement)"/>) on both sides.
/// </summary>
public sealed class MapReduceOracle : IDisposable
{
    private const string Null = "∅";
    private readonly SqliteConnection _connection;

    public MapReduceOracle(IReadOnlyList<OracleDocument> documents)
    {
        _connection = new SqliteConnection("Data Source=:memory:");
        _connection.Open();
        _connection.CreateFunction("oracle_key", (string? type, object? atom) => Key(type, atom), isDeterministic: true);
        Execute("CREATE TABLE docs(seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, json TEXT NOT NULL)");
        using var transaction = _connection.BeginTransaction();
        using var insert = _connection.CreateCommand();
        insert.Transaction = transaction;
        insert.CommandText = "INSERT INTO docs(seq, id, json) VALUES ($seq, $id, $json)";
        for (var i = 0; i < documents.Count; i++)
        {
            insert.Parameters.Clear();
            insert.Parameters.AddWithValue("$seq", i + 1);
            insert.Parameters.AddWithValue("$id", documents[i].Id);
            insert.Parameters.AddWithValue("$json", documents[i].Json);
            insert.ExecuteNonQuery();
        }
        transaction.Commit();
    }

    /// <summary>Replaces (or adds) a document.</summary>
    public void Put(string id, string json)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = "INSERT INTO docs(id, json) VALUES ($id, $json) ON CONFLICT(id) DO UPDATE SET json = excluded.json";
        command.Parameters.AddWithValue("$id", id);
        command.Parameters.AddWithValue("$json", json);
        command.ExecuteNonQuery();
    }

    public void Delete(string id)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = "DELETE FROM docs WHERE id = $id";
        command.Parameters.AddWithValue("$id", id);
        command.ExecuteNonQuery();
    }

    /// <summary>The expected rows by group key: each aggregation's value (a long, a double, or null).</summary>
    public Dictionary<string, object?[]> Expected(ReduceSpec spec)
    {
        BuildEntries(spec);
        var keys = string.Join(", ", spec.Groups.Select((_, g) => $"en.k{g}"));
        var rows = new Dictionary<string, object?[]>(StringComparer.Ordinal);
        foreach (var (key, values) in Query($"SELECT {keys}, COUNT(*) FROM entries en GROUP BY {keys}", spec.Groups.Count))
            rows[key] = new object?[spec.Aggregations.Count];
        for (var a = 0; a < spec.Aggregations.Count; a++)
        {
            var aggregation = spec.Aggregations[a];
            foreach (var row in rows.Values)
            {
                row[a] = aggregation.Op switch
                {
                    "Count" => 0L,
                    "Sum" => 0L,
                    _ => null,
                };
            }
            var (from, type, value) = Source(spec, aggregation);
            var filter = aggregation.Op == "Count"
                ? $"{type} IS NOT NULL AND {type} NOT IN ('null', 'object', 'array')"
                : $"{type} IN ('integer', 'real')";
            var function = aggregation.Op switch
            {
                "Count" => "COUNT(*)",
                "Sum" => $"SUM({value})",
                "Min" => $"MIN({value})",
                "Max" => $"MAX({value})",
                _ => $"AVG({value})",
            };
            foreach (var (key, values) in Query($"SELECT {keys}, {function} FROM {from} WHERE {filter} GROUP BY {keys}", spec.Groups.Count))
                rows[key][a] = values;
        }
        return rows;
    }

    /// <summary>The comparable key of a Folio row's group values, as <see cref="Expected"/> keys SQLite's.</summary>
    public static string KeyOf(JsonElement row, ReduceSpec spec)
    {
        var parts = new List<string>(spec.Groups.Count);
        foreach (var group in spec.Groups)
            parts.Add(KeyOf(row.GetProperty(group.Name)));
        return string.Join('\u0001', parts);
    }

    public static string KeyOf(JsonElement value) => value.ValueKind switch
    {
        JsonValueKind.String => "s:" + value.GetString(),
        JsonValueKind.Number when value.TryGetInt64(out var integer) => "n:" + integer.ToString(CultureInfo.InvariantCulture),
        JsonValueKind.Number => Number(value.GetDouble()),
        JsonValueKind.True => "b:true",
        JsonValueKind.False => "b:false",
        JsonValueKind.Null => Null,
        _ => "j:" + value.GetRawText(),
    };

    public void Dispose() => _connection.Dispose();

    private static string Number(double value) =>
        Math.Floor(value) == value && Math.Abs(value) < 9e18 ? "n:" + ((long)value).ToString(CultureInfo.InvariantCulture) : "n:" + value.ToString("R", CultureInfo.InvariantCulture);

    private static string Key(string? type, object? atom) => type switch
    {
        null or "null" => Null,
        "text" => "s:" + (string)atom!,
        "integer" => "n:" + Convert.ToInt64(atom, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture),
        "real" => Number(Convert.ToDouble(atom, CultureInfo.InvariantCulture)),
        "true" => "b:true",
        "false" => "b:false",
        _ => "j:" + atom,
    };

    /// <summary>The entries table: one row per map entry with its group keys k0…, the fanned-out item, and its document.</summary>
    private void BuildEntries(ReduceSpec spec)
    {
        var columns = string.Join(", ", spec.Groups.Select((_, g) => $"k{g}"));
        Execute($"DROP TABLE IF EXISTS entries; CREATE TABLE entries(seq INTEGER, itype TEXT, item, {columns})");
        var fan = spec.FanOut;
        if (fan is null)
        {
            Execute($"INSERT INTO entries SELECT d.seq, NULL, NULL, {GroupKeys(spec, "NULL", "NULL")} FROM docs d");
            return;
        }
        Execute($"""
            INSERT INTO entries
            SELECT d.seq, e.type, e.value, {GroupKeys(spec, "e.type", "e.value")} FROM docs d, json_each(d.json, '$.{fan}') e
            UNION ALL
            SELECT d.seq, NULL, NULL, {GroupKeys(spec, "NULL", "NULL")} FROM docs d WHERE json_type(d.json, '$.{fan}') IS NULL
            """);
    }

    private static string GroupKeys(ReduceSpec spec, string itemType, string item)
    {
        var keys = new List<string>();
        foreach (var group in spec.Groups)
        {
            if (group.Array is null)
                keys.Add($"oracle_key(json_type(d.json, '$.{group.Path}'), json_extract(d.json, '$.{group.Path}'))");
            else if (group.Rest is null)
                keys.Add($"oracle_key({itemType}, {item})");
            else
                keys.Add($"oracle_key(json_type({item}, '$.{group.Rest}'), json_extract({item}, '$.{group.Rest}'))");
        }
        return string.Join(", ", keys);
    }

    /// <summary>Where an aggregation's values come from, as (FROM clause, type expression, value expression).</summary>
    private static (string From, string Type, string Value) Source(ReduceSpec spec, ReduceSpec.Aggregation aggregation)
    {
        if (aggregation.Path is null)
            return ("entries en", "'integer'", "1");
        var (array, rest) = Split(aggregation.Path);
        if (array is null)
            return ("entries en JOIN docs d ON d.seq = en.seq", $"json_type(d.json, '$.{rest}')", $"json_extract(d.json, '$.{rest}')");
        if (array == spec.FanOut)
        {
            return rest is null
                ? ("entries en", "en.itype", "en.item")
                : ("entries en", $"json_type(en.item, '$.{rest}')", $"json_extract(en.item, '$.{rest}')");
        }
        return rest is null
            ? ($"entries en JOIN docs d ON d.seq = en.seq, json_each(d.json, '$.{array}') v", "v.type", "v.atom")
            : ($"entries en JOIN docs d ON d.seq = en.seq, json_each(d.json, '$.{array}') v", $"json_type(v.value, '$.{rest}')", $"json_extract(v.value, '$.{rest}')");
    }

    /// <summary>A path's array (Lines, Tags) and the property read from its items, or (null, the path) for a scalar path.</summary>
    private static (string? Array, string? Property) Split(string path) => path switch
    {
        "Tags" => ("Tags", null),
        _ when path.StartsWith("Lines[].", StringComparison.Ordinal) => ("Lines", path["Lines[].".Length..]),
        _ => (null, path),
    };

    private IEnumerable<(string Key, object? Value)> Query(string sql, int groups)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = sql;
        using var reader = command.ExecuteReader();
        var parts = new string[groups];
        while (reader.Read())
        {
            for (var g = 0; g < groups; g++)
                parts[g] = reader.GetString(g);
            yield return (string.Join('\u0001', parts), reader.IsDBNull(groups) ? null : reader.GetValue(groups));
        }
    }

    private void Execute(string sql)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }
}
