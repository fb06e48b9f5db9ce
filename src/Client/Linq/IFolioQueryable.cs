namespace Folio.Client.Linq;

/// <summary>A LINQ query Folio translates to RQL; run it with <c>ToListAsync</c>, <c>CountAsync</c>, <c>FirstOrDefaultAsync</c>, …</summary>
/// <typeparam name="T">The type of the results.</typeparam>
public interface IFolioQueryable<T> : IOrderedQueryable<T>
{
    /// <summary>The RQL and parameters the query translates to, for logs and tests.</summary>
    RqlQuery ToRql();
}
