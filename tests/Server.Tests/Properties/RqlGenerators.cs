using CsCheck;

namespace Folio.Server.Tests.Properties;

/// <summary>
/// Grammar-aware generators of RQL: queries built from the grammar's parts (sources, conditions nested a few levels,
/// order by, select, facets, group by, include, limit and offset, each with odd values), and mutations of them that
/// cut, repeat, swap and insert characters and tokens, so the parser, compiler and both engines see near misses too.
/// </summary>
public static class RqlGenerators
{
    private static readonly string[] Sources =
    [
        "from People", "from index 'People/Folio'", "from index 'People/Lucene'", "from index 'Nope'", "from People as p",
        "from @all_docs", "from 'People'", "from index 'People/Folio' as x",
    ];

    private static readonly string[] Fields =
    [
        "Name", "Tag", "N", "Missing", "'Odd Name'", "Address.City", "Lines[].Product", "id()", "p.Name", "@metadata.@collection", "\"Tag\"",
    ];

    private static readonly string[] Operators = ["=", "!=", "<", "<=", ">", ">=", "==", "<>"];

    private static readonly string[] Tokens =
    [
        "(", ")", ",", "'", "\"", "and", "or", "not", "where", "order by", "select", "limit", "offset", "in", "all in", "between", "$p",
        "*", "?", "\\", "--", "{", "}", "[]", ".", "group by", "facet(", "include", "as", "desc", "null", "true", "-1", "1e309", "\u0000",
    ];

    private static readonly Gen<string> Text = Gen.String[Gen.Char["ab*?\\'\" -_.é\u00ff日0123456789"], 0, 8];

    /// <summary>A value: a quoted string (with wildcards, quotes, escapes), a number (huge, negative, fractional), a constant or a parameter.</summary>
    public static readonly Gen<string> Value = Gen.OneOf(
        Text.Select(t => "'" + t.Replace("'", "\\'", StringComparison.Ordinal) + "'"),
        Gen.OneOfConst("'person-1'", "'person-19999'", "'t7'", "'people/3'", "''", "'*'", "'**'", "'*a*a*'", "'person-*'", "'*-1'"),
        Gen.Long.Select(n => n.ToString(System.Globalization.CultureInfo.InvariantCulture)),
        Gen.Int[-5, 25_000].Select(n => n.ToString(System.Globalization.CultureInfo.InvariantCulture)),
        Gen.OneOfConst("0.5", "-0", "1e308", "1e309", "-1e-320", "9223372036854775808", "NaN", "true", "false", "null", "$p0", "$missing"));

    private static readonly Gen<string> Field = Gen.OneOfConst(Fields);

    private static Gen<string> Condition(int depth)
    {
        var leaves = new List<IGen<string>>
        {
            Gen.Select(Field, Gen.OneOfConst(Operators), Value).Select((f, o, v) => $"{f} {o} {v}"),
            Gen.Select(Field, Value, Value).Select((f, a, b) => $"{f} between {a} and {b}"),
            Gen.Select(Field, Value.Array[0, 6]).Select((f, vs) => $"{f} in ({string.Join(", ", vs)})"),
            Gen.Select(Field, Value.Array[0, 4]).Select((f, vs) => $"{f} all in ({string.Join(", ", vs)})"),
            Gen.Select(Gen.OneOfConst("search", "startsWith", "endsWith", "regex"), Field, Value).Select((fn, f, v) => $"{fn}({f}, {v})"),
            Gen.Select(Field, Value, Gen.OneOfConst("and", "or")).Select((f, v, op) => $"search({f}, {v}, {op})"),
            Field.Select(f => $"exists({f})"),
            Gen.Select(Field, Value, Value).Select((f, v, factor) => $"fuzzy({f} = {v}, {factor})"),
            Gen.Select(Field, Value, Value).Select((f, v, slop) => $"proximity(search({f}, {v}), {slop})"),
            Gen.OneOfConst("true", "id() = 'people/1'", "spatial.within(Location, spatial.circle(10, 47.6, -122.3))", "morelikethis(id() = 'people/1')"),
        };
        if (depth == 0)
            return Gen.OneOf(leaves.ToArray());
        var inner = Condition(depth - 1);
        var composite = new List<IGen<string>>(leaves)
        {
            Gen.Select(inner, inner, Gen.OneOfConst("and", "or", "and not", "or not")).Select((a, b, op) => $"{a} {op} {b}"),
            inner.Select(c => $"not {c}"),
            inner.Select(c => $"({c})"),
            Gen.Select(inner, Value).Select((c, f) => $"boost({c}, {f})"),
            inner.Select(c => $"exact({c})"),
            Gen.Select(inner, inner).Select((a, b) => $"intersect({a}, {b})"),
        };
        return Gen.OneOf(composite.ToArray());
    }

    private static readonly Gen<string> OrderBy = Gen.Select(
            Gen.OneOfConst("Name", "N", "Tag", "score()", "random()", "random('seed')", "Missing", "spatial.distance(Location, spatial.point(1, 2))"),
            Gen.OneOfConst("", " as long", " as double", " as string", " as alphanumeric", " as bogus"),
            Gen.OneOfConst("", " asc", " desc"))
        .Select((f, type, direction) => f + type + direction)
        .Array[1, 3]
        .Select(keys => " order by " + string.Join(", ", keys));

    private static readonly Gen<string> Select = Gen.OneOf(
        Field.Array[1, 3].Select(fs => " select " + string.Join(", ", fs)),
        Gen.Select(Field, Field).Select((a, b) => $" select distinct {a}, {b} as alias"),
        Field.Array[1, 2].Select(fs => " select " + string.Join(", ", fs.Select(f => $"facet({f})"))),
        Gen.OneOfConst(
            " select facet(N < 10, N between 10 and 100, N > 100)", " select facet(Tag, $options)", " select { Name: this.Name }",
            " select count()", " select sum(N)", " select facet(id('facets/1'))"));

    private static readonly Gen<string> Paging = Gen.OneOf(
        Gen.Select(Value, Value).Select((l, o) => $" limit {l} offset {o}"),
        Gen.Select(Gen.Long, Gen.Long).Select((o, l) => $" limit {o}, {l}"),
        Gen.OneOfConst(" limit 2147483647", " limit 0", " limit -1", " offset 2147483647", " limit 10 offset 1"));

    /// <summary>A query from the grammar's parts, most of them optional.</summary>
    public static readonly Gen<string> Query =
        Gen.Select(
                Gen.OneOfConst(Sources),
                Gen.Bool.SelectMany(hasWhere => hasWhere ? Condition(3).Select(c => " where " + c) : Gen.Const("")),
                Gen.OneOf(Gen.Const(""), Gen.Const(""), Field.Array[1, 2].Select(fs => " group by " + string.Join(", ", fs))),
                Gen.OneOf(Gen.Const(""), OrderBy),
                Gen.OneOf(Gen.Const(""), Gen.Const(""), Select),
                Gen.OneOf(Gen.Const(""), Gen.OneOfConst(" include Tag", " include timings()", " include explanations()", " include highlight(Name, 18, 2)")),
                Gen.OneOf(Gen.Const(""), Paging))
            .Select((source, where, group, order, select, include, paging) => source + where + group + order + select + include + paging);

    /// <summary>A generated query with one to three mutations: a cut, a repeat, a swap of halves, an inserted token or character.</summary>
    public static readonly Gen<string> Mutated =
        Gen.Select(Query, Gen.Int[1, 3].SelectMany(n => Gen.Select(Gen.Int[0, 4], Gen.Int, Gen.Int, Gen.OneOfConst(Tokens), Gen.Char).Array[n, n]))
            .Select((query, mutations) =>
            {
                foreach (var (kind, a, b, token, c) in mutations)
                    query = Mutate(query, kind, a, b, token, c);
                return query;
            });

    private static string Mutate(string query, int kind, int a, int b, string token, char c)
    {
        if (query.Length == 0)
            return token;
        var at = (int)((uint)a % (uint)query.Length);
        var span = 1 + (int)((uint)b % (uint)Math.Min(12, query.Length - at));
        return kind switch
        {
            0 => query.Remove(at, span),
            1 => query.Insert(at, query.Substring(at, span)),
            2 => query[at..] + " " + query[..at],
            3 => query.Insert(at, " " + token + " "),
            _ => query.Insert(at, c.ToString()),
        };
    }
}
