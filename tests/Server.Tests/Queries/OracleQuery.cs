using System.Globalization;
using System.Text;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// A random query of the oracle test, written once as RQL for Folio and once as SQL over the SQLite
/// oracle's tables (see <see cref="SqliteOracle"/>). The SQL states Folio's documented semantics:
/// <list type="bullet">
/// <item>a field path yields every leaf value found by walking objects and, wherever met, arrays;</item>
/// <item>a number literal compares numerically with numeric values only; a string (or true/false)
/// literal compares with the lower-cased text of values (numbers as their invariant text), <c>&lt;</c>/<c>&gt;</c> in ordinal UTF-8 order;</item>
/// <item>a multi-valued field matches when any value does; <c>!=</c> and <c>not</c> are the complement over the
/// whole collection (documents missing the field included); <c>exists</c> means any value, null, an object or an empty array included;
/// <c>= null</c> means an explicit null;</item>
/// <item>order by text uses the smallest lower-cased text value, <c>as long|double</c> the smallest numeric value,
/// missing first ascending and last descending; ties go by load (etag) order.</item>
/// </list>
/// </summary>
public sealed record OracleQuery(Condition? Where, IReadOnlyList<OracleOrder> OrderBy, int? Limit, int? Offset)
{
    /// <summary>What Folio answers without a limit (the server's default MaxPageSize).</summary>
    public const int DefaultPageSize = 1024;

    public string ToRql()
    {
        var rql = new StringBuilder("from Orders");
        if (Where is not null)
            rql.Append(" where ").Append(Where.ToRql());
        if (OrderBy.Count > 0)
        {
            rql.Append(" order by ");
            for (int i = 0; i < OrderBy.Count; i++)
            {
                if (i > 0)
                    rql.Append(", ");
                rql.Append(OrderBy[i].ToRql());
            }
        }
        if (Limit is { } limit)
            rql.Append(" limit ").Append(limit.ToString(CultureInfo.InvariantCulture));
        if (Offset is { } offset)
            rql.Append(" offset ").Append(offset.ToString(CultureInfo.InvariantCulture));
        return rql.ToString();
    }

    /// <summary>Every matching id in result order (the caller pages it, so the count is the total).</summary>
    public string ToSql()
    {
        var sql = new StringBuilder("SELECT d.id FROM docs d");
        if (Where is not null)
            sql.Append(" WHERE ").Append(Where.ToSql());
        sql.Append(" ORDER BY ");
        foreach (var order in OrderBy)
            sql.Append(order.ToSql()).Append(", ");
        sql.Append("d.seq");
        return sql.ToString();
    }

    public IEnumerable<string> FieldsUsed()
    {
        var fields = new SortedSet<string>(StringComparer.Ordinal);
        Where?.CollectFields(fields);
        foreach (var order in OrderBy)
            fields.Add(order.Field);
        return fields;
    }
}

public sealed record OracleOrder(string Field, string? As, bool Descending)
{
    public string ToRql() => Field + (As is null ? "" : " as " + As) + (Descending ? " desc" : "");

    public string ToSql()
    {
        bool numeric = As is "long" or "double";
        string column = numeric ? "num" : "txt";
        // MIN ignores the NULL txt/num of nulls and of values of the other kind. Without INDEXED BY,
        // SQLite's min/max optimization walks the (path, txt) index until it meets the document.
        return $"(SELECT MIN(v.{column}) FROM vals v INDEXED BY vals_doc WHERE v.seq = d.seq AND v.path = {OracleSql.Text(OracleSql.Path(Field))}){(Descending ? " DESC" : "")}";
    }
}

public abstract record Condition
{
    public abstract string ToRql();

    public abstract string ToSql();

    public abstract void CollectFields(ISet<string> fields);
}

public sealed record AndOr(bool IsAnd, Condition Left, Condition Right) : Condition
{
    public override string ToRql() => $"({Left.ToRql()} {(IsAnd ? "and" : "or")} {Right.ToRql()})";

    public override string ToSql() => $"({Left.ToSql()} {(IsAnd ? "AND" : "OR")} {Right.ToSql()})";

    public override void CollectFields(ISet<string> fields)
    {
        Left.CollectFields(fields);
        Right.CollectFields(fields);
    }
}

public sealed record Not(Condition Inner) : Condition
{
    public override string ToRql() => $"not {Inner.ToRql()}";

    public override string ToSql() => $"(NOT {Inner.ToSql()})";

    public override void CollectFields(ISet<string> fields) => Inner.CollectFields(fields);
}

/// <summary><c>Field op literal</c> with op one of = != &lt; &lt;= &gt; &gt;=.</summary>
public sealed record Compare(string Field, string Op, object? Value) : Condition
{
    public override string ToRql() => $"{Field} {Op} {OracleSql.RqlLiteral(Value)}";

    public override string ToSql()
    {
        if (Op == "!=")
            return $"(NOT {(this with { Op = "=" }).ToSql()})";
        if (Value is null)
            return OracleSql.AnyValue(Field, "v.kind = 'null'");
        return OracleSql.AnyValue(Field, OracleSql.Predicate(Value, Op));
    }

    public override void CollectFields(ISet<string> fields) => fields.Add(Field);
}

public sealed record Between(string Field, object Low, object High) : Condition
{
    public override string ToRql() => $"{Field} between {OracleSql.RqlLiteral(Low)} and {OracleSql.RqlLiteral(High)}";

    public override string ToSql() => OracleSql.AnyValue(Field, $"{OracleSql.Predicate(Low, ">=")} AND {OracleSql.Predicate(High, "<=")}");

    public override void CollectFields(ISet<string> fields) => fields.Add(Field);
}

public sealed record In(string Field, IReadOnlyList<object?> Values) : Condition
{
    public override string ToRql() => $"{Field} in ({string.Join(", ", Values.Select(OracleSql.RqlLiteral))})";

    public override string ToSql() => "(" + string.Join(" OR ", Values.Select(v => new Compare(Field, "=", v).ToSql())) + ")";

    public override void CollectFields(ISet<string> fields) => fields.Add(Field);
}

public sealed record StartsWith(string Field, string Prefix) : Condition
{
    public override string ToRql() => $"startsWith({Field}, {OracleSql.RqlLiteral(Prefix)})";

    public override string ToSql()
    {
        // SQLite's substr counts characters (code points), so the length is counted in runes.
        string lower = Prefix.ToLowerInvariant();
        int characters = lower.EnumerateRunes().Count();
        return OracleSql.AnyValue(Field, $"substr(v.txt, 1, {characters.ToString(CultureInfo.InvariantCulture)}) = {OracleSql.Text(lower)}");
    }

    public override void CollectFields(ISet<string> fields) => fields.Add(Field);
}

public sealed record Exists(string Field) : Condition
{
    public override string ToRql() => $"exists({Field})";

    public override string ToSql() => OracleSql.AnyValue(Field, "1");

    public override void CollectFields(ISet<string> fields) => fields.Add(Field);
}

/// <summary>Literal writing for both languages.</summary>
public static class OracleSql
{
    /// <summary>The oracle's path of a field: array markers dropped (arrays are walked wherever they are).</summary>
    public static string Path(string field) => field.Replace("[]", "", StringComparison.Ordinal);

    /// <summary>Documents with at least one value at <paramref name="field"/> for which <paramref name="predicate"/> (over <c>v</c>) holds.</summary>
    public static string AnyValue(string field, string predicate) =>
        $"d.seq IN (SELECT v.seq FROM vals v WHERE v.path = {Text(Path(field))} AND {predicate})";

    /// <summary>A value comparison: numbers against <c>num</c>, text and booleans against the lower-cased <c>txt</c>.</summary>
    public static string Predicate(object value, string op) => value switch
    {
        long l => $"v.num {op} {l.ToString(CultureInfo.InvariantCulture)}",
        double d => $"v.num {op} {d.ToString("R", CultureInfo.InvariantCulture)}",
        string s => $"v.txt {op} {Text(s.ToLowerInvariant())}",
        bool b => $"v.txt {op} {(b ? "'true'" : "'false'")}",
        _ => throw new ArgumentException($"Unexpected literal {value}", nameof(value)),
    };

    public static string Text(string value) => "'" + value.Replace("'", "''", StringComparison.Ordinal) + "'";

    public static string RqlLiteral(object? value) => value switch
    {
        null => "null",
        long l => l.ToString(CultureInfo.InvariantCulture),
        double d => d.ToString("R", CultureInfo.InvariantCulture),
        string s => "'" + s.Replace("'", "''", StringComparison.Ordinal) + "'",
        bool b => b ? "true" : "false",
        _ => throw new ArgumentException($"Unexpected literal {value}", nameof(value)),
    };
}
