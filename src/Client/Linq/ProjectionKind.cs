namespace Folio.Client.Linq;

/// <summary>How a query's results become objects.</summary>
internal enum ProjectionKind
{
    /// <summary>Whole documents, tracked by the session.</summary>
    None,

    /// <summary>One field per result (<c>Select(x => x.Name)</c>): the result is that field's value.</summary>
    SingleField,

    /// <summary>Several fields (<c>Select(x => new { x.Name, x.Total })</c>): the result is an object of them.</summary>
    Object,
}
