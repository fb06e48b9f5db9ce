using System.Globalization;
using System.Text;
using Folio.Server.Tests.Queries;
using Microsoft.Data.Sqlite;

namespace Folio.Server.Tests.Facets;

/// <summary>What a facet answers, as the oracle computes it: the values (or ranges) of the page and what remains.</summary>
public sealed record ExpectedFacet(string Name, List<ExpectedValue> Values, List<string?> RemainingTerms, long RemainingTermsCount, long RemainingHits, long? MissingCount);

/// <summary>One value of an answer; the aggregations asked for are present (a null number stands for JSON null).</summary>
public sealed record ExpectedValue(string? Range, long Count, string? Name, Dictionary<string, double?> Aggregations);

/// <summary>
/// SQLite's answer to a <see cref="FacetQuery"/>. The documents sit in a table of JSON; <c>vals</c> holds every scalar
/// each field gives a document, read with <c>json_each</c> (an array's items in order, or the field's one value; objects
/// and missing fields give none) with its folded text (<c>k</c>, what a case-insensitive exact field matches), its text as
/// written (<c>sp</c>) and its number. The matches of the conditions a facet counts under go to the temporary table
/// <c>m</c> (kept while facets share their conditions), a term facet's distinct values per match to <c>t</c>, a range's
/// matches to <c>r</c>; <c>GROUP BY</c>s count, aggregate and find each value's most frequent first spelling per
/// document, and ordering, paging and naming follow the options.
/// </summary>
public sealed class FacetOracle : IDisposable
{
    private readonly SqliteConnection _connection;
    private readonly Dictionary<string, Dictionary<string, string>> _spellings = new(StringComparer.Ordinal);

    public FacetOracle(IReadOnlyList<OracleDocument> documents)
    {
        _connection = new SqliteConnection("Data Source=:memory:");
        _connection.Open();
        _connection.CreateFunction("folio_text", (string? type, object? atom) => Text(type, atom), isDeterministic: true);
        _connection.CreateFunction("folio_lower", (string? text) => text?.ToLowerInvariant(), isDeterministic: true);
        Execute("""
            CREATE TABLE docs(seq INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, json TEXT NOT NULL);
            CREATE TABLE vals(seq INTEGER NOT NULL, f TEXT NOT NULL, idx INTEGER NOT NULL, kind INTEGER NOT NULL, k TEXT, sp TEXT, num);
            CREATE INDEX vals_by_field ON vals(f, seq);
            CREATE INDEX vals_by_doc ON vals(seq, f, num);
            CREATE INDEX vals_by_text ON vals(f, kind, k);
            CREATE INDEX vals_by_number ON vals(f, num);
            CREATE TEMP TABLE m(seq INTEGER PRIMARY KEY);
            CREATE TEMP TABLE t(seq INTEGER NOT NULL, kind INTEGER NOT NULL, k TEXT);
            CREATE INDEX t_by_seq ON t(seq);
            CREATE TEMP TABLE r(seq INTEGER PRIMARY KEY);
            """);
        using (var transaction = _connection.BeginTransaction())
        {
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
            foreach (var field in FacetDataset.All)
                FillValues(field, transaction, null);
            transaction.Commit();
        }
    }

    /// <summary>Replaces (or adds) a document.</summary>
    public void Put(string id, string json)
    {
        using var transaction = _connection.BeginTransaction();
        using (var command = _connection.CreateCommand())
        {
            command.Transaction = transaction;
            command.CommandText = "INSERT INTO docs(id, json) VALUES ($id, $json) ON CONFLICT(id) DO UPDATE SET json = excluded.json RETURNING seq";
            command.Parameters.AddWithValue("$id", id);
            command.Parameters.AddWithValue("$json", json);
            var seq = Convert.ToInt64(command.ExecuteScalar(), CultureInfo.InvariantCulture);
            Execute($"DELETE FROM vals WHERE seq = {seq}", transaction);
            foreach (var field in FacetDataset.All)
                FillValues(field, transaction, seq);
        }
        transaction.Commit();
        _spellings.Clear();
    }

    public void Delete(string id)
    {
        Execute($"DELETE FROM vals WHERE seq IN (SELECT seq FROM docs WHERE id = '{id.Replace("'", "''", StringComparison.Ordinal)}'); DELETE FROM docs WHERE id = '{id.Replace("'", "''", StringComparison.Ordinal)}'");
        _spellings.Clear();
    }

    public long Count() => Convert.ToInt64(Scalar("SELECT COUNT(*) FROM docs"), CultureInfo.InvariantCulture);

    /// <summary>The query's total and its facets as Folio must answer them.</summary>
    public (long Total, List<ExpectedFacet> Facets) Expected(FacetQuery query)
    {
        var matched = Match(query.Conditions, null);
        var total = Convert.ToInt64(Scalar("SELECT COUNT(*) FROM m"), CultureInfo.InvariantCulture);
        var facets = new List<ExpectedFacet>(query.Facets.Count);
        foreach (var facet in query.Facets)
        {
            matched = Match(query.ConditionsFor(facet), matched);
            facets.Add(facet.IsRange ? Ranges(facet) : Terms(facet));
        }
        return (total, facets);
    }

    /// <summary>Fills <c>m</c> with the documents meeting <paramref name="conditions"/>, unless it holds them already.</summary>
    private string Match(List<FacetCondition> conditions, string? matched)
    {
        var where = conditions.Count == 0 ? "1" : string.Join(" AND ", conditions.Select(c => c.Sql));
        if (where != matched)
            Execute($"DELETE FROM m; INSERT INTO m SELECT d.seq FROM docs d WHERE {where}");
        return where;
    }

    public void Dispose() => _connection.Dispose();

    private ExpectedFacet Terms(FacetSpec facet)
    {
        // t: each matched document with each distinct (kind, folded text) it has, counted and aggregated by value.
        Execute($"DELETE FROM t; INSERT INTO t SELECT DISTINCT v.seq, v.kind, v.k FROM vals v JOIN m ON m.seq = v.seq WHERE v.f = {Sql(facet.Field.Property)}");
        var counts = new Dictionary<(long Kind, string? Key), long>();
        foreach (var row in Rows("SELECT kind, k, COUNT(*) FROM t GROUP BY kind, k"))
            counts[((long)row[0]!, row[1] as string)] = Convert.ToInt64(row[2], CultureInfo.InvariantCulture);
        var numbers = new Dictionary<string, Dictionary<(long, string?), Stats>>(StringComparer.Ordinal);
        foreach (var aggregated in facet.Aggregations.Select(a => a.Field.Property).Distinct())
            numbers[aggregated] = [];
        if (numbers.Count > 0)
        {
            foreach (var row in Rows($"""
                SELECT t.kind, t.k, a.f, SUM(a.num), MIN(a.num), MAX(a.num), COUNT(a.num)
                FROM t CROSS JOIN vals a INDEXED BY vals_by_doc ON a.seq = t.seq AND a.f IN ({string.Join(", ", numbers.Keys.Select(Sql))}) AND a.num IS NOT NULL
                GROUP BY t.kind, t.k, a.f
                """))
                numbers[(string)row[2]!][((long)row[0]!, row[1] as string)] = Stats.From(row, 3);
        }
        var missing = Convert.ToInt64(Scalar("SELECT COUNT(*) FROM m WHERE seq NOT IN (SELECT seq FROM t)"), CultureInfo.InvariantCulture);

        var order = counts.Keys.ToList();
        var options = facet.Options;
        order.Sort((x, y) => (options?.SortMode ?? "CountDesc") switch
        {
            "ValueAsc" => CompareValues(x, y),
            "ValueDesc" => CompareValues(y, x),
            "CountAsc" => counts[x] != counts[y] ? counts[x].CompareTo(counts[y]) : CompareValues(x, y),
            _ => counts[x] != counts[y] ? counts[y].CompareTo(counts[x]) : CompareValues(x, y),
        });
        var start = Math.Min(options?.Start ?? 0, order.Count);
        var end = start + Math.Min(options?.PageSize ?? int.MaxValue, order.Count - start);
        var spellings = Spellings(facet.Field);
        string? Display((long Kind, string? Key) value) => value.Kind == 0 ? null : spellings.GetValueOrDefault(value.Key!, value.Key!);
        var values = new List<ExpectedValue>();
        for (var i = start; i < end; i++)
            AddValues(values, facet, Display(order[i]), counts[order[i]], property => numbers[property].GetValueOrDefault(order[i]));
        var remaining = order.Skip(end).ToList();
        return new ExpectedFacet(Name(facet), values, options?.IncludeRemainingTerms == true ? remaining.Select(Display).ToList() : [],
            remaining.Count, remaining.Sum(r => counts[r]), missing);
    }

    private ExpectedFacet Ranges(FacetSpec facet)
    {
        var field = Sql(facet.Field.Property);
        var values = new List<ExpectedValue>();
        var aggregated = facet.Aggregations.Select(a => a.Field.Property).Distinct().ToList();
        foreach (var range in facet.Ranges)
        {
            // r: the matched documents with a number in the range.
            Execute($"DELETE FROM r; INSERT INTO r SELECT DISTINCT v.seq FROM vals v JOIN m ON m.seq = v.seq WHERE v.f = {field} AND v.num IS NOT NULL AND {range.Sql}");
            var count = Convert.ToInt64(Scalar("SELECT COUNT(*) FROM r"), CultureInfo.InvariantCulture);
            var numbers = aggregated.ToDictionary(a => a, _ => default(Stats), StringComparer.Ordinal);
            if (aggregated.Count > 0)
            {
                foreach (var row in Rows($"SELECT a.f, SUM(a.num), MIN(a.num), MAX(a.num), COUNT(a.num) FROM r CROSS JOIN vals a INDEXED BY vals_by_doc ON a.seq = r.seq AND a.f IN ({string.Join(", ", aggregated.Select(Sql))}) AND a.num IS NOT NULL GROUP BY a.f"))
                    numbers[(string)row[0]!] = Stats.From(row, 1);
            }
            AddValues(values, facet, range.Rql, count, property => numbers[property]);
        }
        return new ExpectedFacet(Name(facet), values, [], 0, 0, null);
    }

    private static string Name(FacetSpec facet) => facet.Field.Property;

    /// <summary>One value per aggregated name (with the operations asked under it), or one plain value.</summary>
    private static void AddValues(List<ExpectedValue> values, FacetSpec facet, string? range, long count, Func<string, Stats> numbers)
    {
        if (facet.Aggregations.Count == 0)
        {
            values.Add(new ExpectedValue(range, count, null, []));
            return;
        }
        foreach (var group in facet.Aggregations.GroupBy(a => a.Name))
        {
            var stats = numbers(group.First().Field.Property);
            var aggregations = new Dictionary<string, double?>(StringComparer.Ordinal);
            foreach (var aggregation in group)
            {
                switch (aggregation.Op)
                {
                    case "sum":
                        aggregations["Sum"] = stats.Sum;
                        break;
                    case "min":
                        aggregations["Min"] = stats.Count > 0 ? stats.Min : null;
                        break;
                    case "max":
                        aggregations["Max"] = stats.Count > 0 ? stats.Max : null;
                        break;
                    default:
                        aggregations["Average"] = stats.Count > 0 ? stats.Sum / stats.Count : null;
                        break;
                }
            }
            values.Add(new ExpectedValue(range, count, group.Key, aggregations));
        }
    }

    /// <summary>
    /// Per folded value of a field, over every document, the spelling most documents give first (ties: the first in
    /// UTF-8 byte order), where that is not the folded value itself.
    /// </summary>
    private Dictionary<string, string> Spellings(FacetDataset.Field field)
    {
        if (_spellings.TryGetValue(field.Property, out var cached))
            return cached;
        var best = new Dictionary<string, (string Spelling, long Count)>(StringComparer.Ordinal);
        foreach (var row in Rows($"""
            SELECT k, sp, COUNT(*) FROM (
                SELECT v.k, v.sp, ROW_NUMBER() OVER (PARTITION BY v.seq, v.k ORDER BY v.idx) AS rn FROM vals v WHERE v.f = {Sql(field.Property)} AND v.kind = 1)
            WHERE rn = 1 GROUP BY k, sp
            """))
        {
            var (key, spelling, count) = ((string)row[0]!, (string)row[1]!, Convert.ToInt64(row[2], CultureInfo.InvariantCulture));
            if (!best.TryGetValue(key, out var current) || count > current.Count || (count == current.Count && Bytes(spelling).SequenceCompareTo(Bytes(current.Spelling)) < 0))
                best[key] = (spelling, count);
        }
        var spellings = best.Where(b => b.Value.Spelling != b.Key).ToDictionary(b => b.Key, b => b.Value.Spelling, StringComparer.Ordinal);
        _spellings[field.Property] = spellings;
        return spellings;
    }

    /// <summary>Values order as Folio's doc values: null first, then folded text by its UTF-8 bytes.</summary>
    private static int CompareValues((long Kind, string? Key) x, (long Kind, string? Key) y) =>
        x.Kind != y.Kind ? x.Kind.CompareTo(y.Kind) : x.Kind == 0 ? 0 : Bytes(x.Key!).SequenceCompareTo(Bytes(y.Key!));

    private static byte[] Bytes(string text) => Encoding.UTF8.GetBytes(text);

    /// <summary>A scalar as an exact field indexes it: text as given, integers and reals as .NET writes them, booleans as true and false.</summary>
    private static string? Text(string? type, object? atom) => type switch
    {
        "text" => (string)atom!,
        "integer" => Convert.ToInt64(atom, CultureInfo.InvariantCulture).ToString(CultureInfo.InvariantCulture),
        "real" => Convert.ToDouble(atom, CultureInfo.InvariantCulture).ToString("R", CultureInfo.InvariantCulture),
        "true" or "false" => type,
        _ => null,
    };

    private void FillValues(FacetDataset.Field field, SqliteTransaction transaction, long? seq)
    {
        var only = seq is null ? "" : $"AND d.seq = {seq}";
        using var command = _connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = $"""
            INSERT INTO vals(seq, f, idx, kind, k, sp, num)
            SELECT d.seq, $f, CAST(e.key AS INTEGER), e.type != 'null', folio_lower(folio_text(e.type, e.atom)), folio_text(e.type, e.atom),
                   CASE WHEN e.type IN ('integer', 'real') THEN e.atom END
            FROM docs d, json_each(d.json, $path) e
            WHERE json_type(d.json, $path) = 'array' AND e.type NOT IN ('object', 'array') {only}
            UNION ALL
            SELECT d.seq, $f, 0, json_type(d.json, $path) != 'null', folio_lower(folio_text(json_type(d.json, $path), json_extract(d.json, $path))),
                   folio_text(json_type(d.json, $path), json_extract(d.json, $path)),
                   CASE WHEN json_type(d.json, $path) IN ('integer', 'real') THEN json_extract(d.json, $path) END
            FROM docs d
            WHERE json_type(d.json, $path) NOT IN ('array', 'object') {only}
            """;
        command.Parameters.AddWithValue("$f", field.Property);
        command.Parameters.AddWithValue("$path", field.JsonPath);
        command.ExecuteNonQuery();
    }

    private static string Sql(string text) => "'" + text.Replace("'", "''", StringComparison.Ordinal) + "'";

    private List<object?[]> Rows(string sql)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = sql;
        using var reader = command.ExecuteReader();
        var rows = new List<object?[]>();
        while (reader.Read())
        {
            var row = new object?[reader.FieldCount];
            for (var i = 0; i < row.Length; i++)
                row[i] = reader.IsDBNull(i) ? null : reader.GetValue(i);
            rows.Add(row);
        }
        return rows;
    }

    private object? Scalar(string sql)
    {
        using var command = _connection.CreateCommand();
        command.CommandText = sql;
        return command.ExecuteScalar();
    }

    private void Execute(string sql, SqliteTransaction? transaction = null)
    {
        using var command = _connection.CreateCommand();
        command.Transaction = transaction;
        command.CommandText = sql;
        command.ExecuteNonQuery();
    }

    /// <summary>A value's numbers: their sum, smallest, largest and count.</summary>
    private readonly record struct Stats(double Sum, double Min, double Max, long Count)
    {
        public static Stats From(object?[] row, int at) => row[at + 3] is null || Convert.ToInt64(row[at + 3], CultureInfo.InvariantCulture) == 0
            ? default
            : new Stats(Convert.ToDouble(row[at], CultureInfo.InvariantCulture), Convert.ToDouble(row[at + 1], CultureInfo.InvariantCulture),
                Convert.ToDouble(row[at + 2], CultureInfo.InvariantCulture), Convert.ToInt64(row[at + 3], CultureInfo.InvariantCulture));
    }
}
