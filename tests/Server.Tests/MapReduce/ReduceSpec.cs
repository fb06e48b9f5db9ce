using System.Text;
using System.Text.Json;

namespace Folio.Server.Tests.MapReduce;

/// <summary>
/// A random map/reduce definition over the oracle's Orders: group fields (document-level paths, and at most
/// one path fanning out over an array: <c>Lines[].Product</c> or <c>Tags</c>) and aggregations, written both
/// as Folio's definition JSON and, by <see cref="MapReduceOracle"/>, as SQL.
/// </summary>
public sealed record ReduceSpec(string Name, IReadOnlyList<ReduceSpec.Group> Groups, IReadOnlyList<ReduceSpec.Aggregation> Aggregations)
{
    private static readonly string[] ScalarGroups = ["Company", "Employee", "Status", "Priority", "Paid", "ShipTo.Country", "ShipTo.City", "Rating", "ShipTo.Zip"];
    private static readonly string[] NumericPaths = ["Freight", "Total", "Discount", "Priority", "Rating", "ShipTo.Geo.Lat", "Lines[].Quantity", "Lines[].Price", "Tags"];
    private static readonly string[] CountPaths = ["Freight", "Discount", "Rating", "Lines[].Quantity", "Tags", "ShipTo.Zip", "Status"];
    private static readonly string[] AwkwardNames = ["Total Freight", "a.b", "名前", "e-mail", "it's", "2nd", "[x]", "Ω"];

    /// <summary>The array a fanning-out group path walks ("Lines" or "Tags"), or null.</summary>
    public string? FanOut => Groups.FirstOrDefault(g => g.Array is not null)?.Array;

    public string ToDefinitionJson()
    {
        var groupBy = Groups.Select(g => new { g.Name, Path = g.Path }).ToList();
        var aggregations = new Dictionary<string, object>();
        foreach (var a in Aggregations)
            aggregations[a.Name] = a.Path is null ? new { Op = a.Op } : new { Op = a.Op, Path = a.Path };
        return JsonSerializer.Serialize(new { Name, Collections = new[] { "Orders" }, Reduce = new { GroupBy = groupBy, Aggregations = aggregations } });
    }

    /// <summary>The same grouping as a <c>group by</c> query, each row named as the definition names it.</summary>
    public string ToGroupByRql()
    {
        var text = new StringBuilder("from Orders group by ");
        text.AppendJoin(", ", Groups.Select(g => g.Path)).Append(" select ");
        text.AppendJoin(", ", Groups.Select(g => $"{g.Path} as {Quote(g.Name)}")
            .Concat(Aggregations.Select(a => $"{Function(a)} as {Quote(a.Name)}")));
        return text.ToString();
    }

    private static string Function(Aggregation aggregation) => aggregation.Op switch
    {
        "Average" => $"avg({aggregation.Path})",
        _ => $"{aggregation.Op.ToLowerInvariant()}({aggregation.Path})",
    };

    private static string Quote(string name) => "'" + name.Replace("\\", "\\\\", StringComparison.Ordinal).Replace("'", "\\'", StringComparison.Ordinal) + "'";

    public override string ToString()
    {
        var text = new StringBuilder();
        text.Append("group by ").AppendJoin(", ", Groups.Select(g => g.Path)).Append(" aggregate ");
        text.AppendJoin(", ", Aggregations.Select(a => $"{a.Name}={a.Op}({a.Path})"));
        return text.ToString();
    }

    public static ReduceSpec Random(Random random, int number)
    {
        var groups = new List<Group>();
        if (random.NextDouble() < 0.4)
            groups.Add(random.Next(2) == 0 ? new Group("Product", "Lines[].Product", "Lines", "Product") : new Group("Tags", "Tags", "Tags", null));
        var scalars = random.Next(groups.Count == 0 ? 1 : 0, 3);
        foreach (var path in ScalarGroups.OrderBy(_ => random.Next()).Take(scalars))
            groups.Add(new Group(path.Split('.')[^1], path, null, null));
        groups = groups.OrderBy(_ => random.Next()).ToList();

        var aggregations = new List<Aggregation>();
        var count = random.Next(1, 5);
        for (var i = 0; i < count; i++)
        {
            var name = random.NextDouble() < 0.3 ? AwkwardNames[random.Next(AwkwardNames.Length)] + i : "A" + i;
            var op = random.Next(6) switch { 0 => "Count", 1 => "Sum", 2 => "Min", 3 => "Max", 4 => "Average", _ => "Count" };
            string? path = op == "Count"
                ? (random.Next(2) == 0 ? null : CountPaths[random.Next(CountPaths.Length)])
                : NumericPaths[random.Next(NumericPaths.Length)];
            aggregations.Add(new Aggregation(name, op, path));
        }
        return new ReduceSpec($"Oracle/R{number}", groups, aggregations);
    }

    /// <param name="Name">The group field's name in the rows.</param>
    /// <param name="Path">The definition path.</param>
    /// <param name="Array">The array the path fans out over (a top-level property), or null for a document-level path.</param>
    /// <param name="Rest">The property read from each item of <paramref name="Array"/>, or null for the item itself.</param>
    public sealed record Group(string Name, string Path, string? Array, string? Rest);

    /// <param name="Path">Null for a count of entries.</param>
    public sealed record Aggregation(string Name, string Op, string? Path);
}
