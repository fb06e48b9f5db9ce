namespace Folio.Client.Linq;

/// <summary>What a query answers: its results, their count, the first, or whether there is any.</summary>
internal enum ResultOperator
{
    List,
    Count,
    First,
    FirstOrDefault,
    Single,
    SingleOrDefault,
    Any,
}
