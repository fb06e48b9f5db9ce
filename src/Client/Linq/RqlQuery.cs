namespace Folio.Client.Linq;

/// <summary>An RQL query and the values of its <c>$p0</c>, <c>$p1</c>, … parameters.</summary>
/// <param name="Text">The RQL.</param>
/// <param name="Parameters">The parameters' values by name (without the <c>$</c>).</param>
public sealed record RqlQuery(string Text, IReadOnlyDictionary<string, object?> Parameters)
{
    /// <summary>The RQL.</summary>
    public override string ToString() => Text;
}
