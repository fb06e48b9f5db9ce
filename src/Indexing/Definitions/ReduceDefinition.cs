namespace Folio.Indexing.Definitions;

/// <summary>
/// The reduce part of a map/reduce index definition: each document of the index's collections maps to one
/// entry per group it belongs to (one per item of an array a <see cref="GroupBy"/> path walks through
/// <c>[]</c>), and the entries of a group combine into one result row of the group's values and its
/// <see cref="Aggregations"/>. JSON: <c>{"GroupBy":["Company" | {"Name","Path"[,"Array":true]}…],"Aggregations":{"Total":{"Op","Path"}…}}</c>.
/// </summary>
public sealed class ReduceDefinition
{
    /// <summary>Builds a reduce definition after checking it.</summary>
    /// <exception cref="IndexDefinitionException">A group or aggregation is missing, named twice, or lacks the path its op needs.</exception>
    public ReduceDefinition(IReadOnlyList<GroupByField> groupBy, IReadOnlyList<AggregationDefinition> aggregations)
    {
        GroupBy = groupBy;
        Aggregations = aggregations;
        Validate();
    }

    /// <summary>The fields a group is made of, in order.</summary>
    public IReadOnlyList<GroupByField> GroupBy { get; }

    /// <summary>The aggregated values of each group, in order.</summary>
    public IReadOnlyList<AggregationDefinition> Aggregations { get; }

    private void Validate()
    {
        if (GroupBy.Count == 0)
            throw new IndexDefinitionException("Reduce.GroupBy needs at least one field.");
        var names = new HashSet<string>(StringComparer.Ordinal);
        foreach (var group in GroupBy)
        {
            CheckName(group.Name, "GroupBy field");
            if (!names.Add(group.Name))
                throw new IndexDefinitionException($"Reduce.GroupBy names '{group.Name}' twice.");
        }
        foreach (var aggregation in Aggregations)
        {
            CheckName(aggregation.Name, "aggregation");
            if (!names.Add(aggregation.Name))
                throw new IndexDefinitionException($"The aggregation '{aggregation.Name}' is named like a GroupBy field or another aggregation.");
            if (aggregation.Path is null && aggregation.Op != AggregationOp.Count)
                throw new IndexDefinitionException($"The aggregation '{aggregation.Name}' ({aggregation.Op}) needs a Path.");
        }
    }

    private static void CheckName(string name, string what)
    {
        if (string.IsNullOrWhiteSpace(name) || name.Length > IndexDefinition.MaxNameLength
            || name.EndsWith(IndexDefinition.NumericSuffix, StringComparison.Ordinal) || name == IndexDefinition.IdField)
        {
            throw new IndexDefinitionException($"The {what} name '{name}' is empty, too long, ends with the reserved '{IndexDefinition.NumericSuffix}' or is the reserved '{IndexDefinition.IdField}'.");
        }
    }
}
