using System.Text;

namespace Folio.Server.Tests.Queries;

/// <summary>
/// Random queries over an <see cref="OracleDataset"/>: boolean trees of =, !=, &lt;, &lt;=, &gt;, &gt;=,
/// between, in, startsWith, exists and not over plain, nested and array fields, with literals drawn
/// from the data (case changed, shortened, or absent from it), then text or numeric order by, asc or
/// desc, and limit/offset. Seeded, so a seed names a query list.
/// </summary>
public sealed class OracleQueryGenerator(OracleDataset data, int seed)
{
    private static readonly string[] Operators = ["=", "!=", "<", "<=", ">", ">="];
    private static readonly int[] Limits = [1, 3, 10, 25, 50, 100, 200];
    private static readonly int[] Offsets = [0, 1, 7, 50, 333, 2000, 60_000];

    private readonly Random _random = new(seed);

    public List<OracleQuery> Generate(int count)
    {
        var queries = new List<OracleQuery>(count);
        for (int i = 0; i < count; i++)
            queries.Add(Next());
        return queries;
    }

    private OracleQuery Next()
    {
        Condition? where = _random.NextDouble() < 0.05 ? null : Tree(_random.Next(0, 3));
        var orderBy = new List<OracleOrder>();
        double p = _random.NextDouble();
        int keys = p < 0.25 ? 0 : p < 0.8 ? 1 : 2;
        for (int k = 0; k < keys; k++)
        {
            string field = Field();
            double t = _random.NextDouble();
            string? type = t < 0.45 ? null : t < 0.55 ? "string" : t < 0.85 ? "double" : "long";
            orderBy.Add(new OracleOrder(field, type, _random.NextDouble() < 0.5));
        }
        int? limit = null, offset = null;
        p = _random.NextDouble();
        if (p < 0.9)
            limit = Limits[_random.Next(Limits.Length)];
        if (_random.NextDouble() < 0.3)
            offset = Offsets[_random.Next(Offsets.Length)];
        return new OracleQuery(where, orderBy, limit, offset);
    }

    private Condition Tree(int depth)
    {
        if (depth == 0 || _random.NextDouble() < 0.3)
            return _random.NextDouble() < 0.1 ? new Not(Leaf()) : Leaf();
        var node = new AndOr(_random.NextDouble() < 0.55, Tree(depth - 1), Tree(depth - 1));
        return _random.NextDouble() < 0.12 ? new Not(node) : node;
    }

    private string Field() => OracleDataset.Fields[_random.Next(OracleDataset.Fields.Length)];

    private Condition Leaf()
    {
        string field = Field();
        double p = _random.NextDouble();
        if (p < 0.30)
            return new Compare(field, "=", Literal(field, allowNull: true));
        if (p < 0.40)
            return new Compare(field, "!=", Literal(field, allowNull: true));
        if (p < 0.62)
        {
            string op = Operators[_random.Next(2, Operators.Length)];
            return new Compare(field, op, Literal(field, allowNull: false, allowBool: false));
        }
        if (p < 0.72)
        {
            object low = Literal(field, allowNull: false, allowBool: false)!;
            object high = SameKind(field, low);
            // Mostly in order; sometimes reversed, which matches nothing in both engines.
            if (_random.NextDouble() < 0.85 && CompareKind(low, high) > 0)
                (low, high) = (high, low);
            return new Between(field, low, high);
        }
        if (p < 0.82)
        {
            int n = _random.Next(1, 5);
            var values = new List<object?>(n);
            for (int i = 0; i < n; i++)
                values.Add(Literal(field, allowNull: true));
            return new In(field, values);
        }
        if (p < 0.92)
            return new StartsWith(field, Prefix(field));
        return new Exists(field);
    }

    /// <summary>A value of the field from the data, sometimes changed: another case, a near number, a string that is not there.</summary>
    private object? Literal(string field, bool allowNull, bool allowBool = true)
    {
        for (int attempt = 0; ; attempt++)
        {
            object? value = Sample(field);
            double p = _random.NextDouble();
            if (p < 0.05)
                value = "no such " + field;
            else if (p < 0.10)
                value = (long)_random.Next(-5, 100);
            value = value switch
            {
                string s when _random.NextDouble() < 0.3 => _random.NextDouble() < 0.5 ? s.ToUpperInvariant() : s.ToLowerInvariant(),
                long l when _random.NextDouble() < 0.2 => l + _random.Next(-3, 4),
                double d when _random.NextDouble() < 0.2 => Math.Round(d + (_random.NextDouble() - 0.5), 2),
                _ => value,
            };
            if ((value is null && !allowNull) || (value is bool && !allowBool))
            {
                if (attempt < 20)
                    continue;
                return "fallback";
            }
            return value;
        }
    }

    private object SameKind(string field, object like)
    {
        for (int attempt = 0; attempt < 50; attempt++)
        {
            object? value = Literal(field, allowNull: false, allowBool: false);
            if (value is not null && IsNumber(value) == IsNumber(like))
                return value;
        }
        return like;
    }

    private static bool IsNumber(object value) => value is long or double;

    private static int CompareKind(object a, object b) => IsNumber(a)
        ? Convert.ToDouble(a, System.Globalization.CultureInfo.InvariantCulture).CompareTo(Convert.ToDouble(b, System.Globalization.CultureInfo.InvariantCulture))
        : Encoding.UTF8.GetBytes(((string)a).ToLowerInvariant()).AsSpan().SequenceCompareTo(Encoding.UTF8.GetBytes(((string)b).ToLowerInvariant()));

    private string Prefix(string field)
    {
        for (int attempt = 0; attempt < 20; attempt++)
        {
            if (Sample(field) is string { Length: > 0 } s)
            {
                var runes = s.EnumerateRunes().ToArray();
                int take = _random.Next(1, Math.Min(4, runes.Length) + 1);
                string prefix = string.Concat(runes.Take(take).Select(r => r.ToString()));
                return _random.NextDouble() < 0.3 ? prefix.ToUpperInvariant() : prefix;
            }
        }
        return _random.NextDouble() < 0.5 ? "1" : "a";
    }

    private object? Sample(string field)
    {
        var pool = data.Samples[field];
        return pool.Count == 0 ? "empty pool" : pool[_random.Next(pool.Count)];
    }
}
