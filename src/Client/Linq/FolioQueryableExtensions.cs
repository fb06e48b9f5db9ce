using System.Linq.Expressions;
using System.Reflection;

namespace Folio.Client.Linq;

/// <summary>Folio's LINQ operators (<c>Search</c>, <c>Filter</c>, <c>Include</c>, <c>Customize</c>, <c>Statistics</c>) and the asynchronous ways to run a query.</summary>
public static class FolioQueryableExtensions
{
    /// <summary>Full-text search: the documents whose <paramref name="field"/> holds the words of <paramref name="terms"/> (RQL <c>search()</c>); and-ed with the query's other conditions.</summary>
    public static IFolioQueryable<T> Search<T>(this IQueryable<T> source, Expression<Func<T, object?>> field, string terms) =>
        Call(source, (MethodInfo)MethodBase.GetCurrentMethod()!, Expression.Quote(field), Expression.Constant(terms));

    /// <summary>
    /// An exploration filter (RQL <c>filter</c>): <paramref name="predicate"/> is checked on each document the query
    /// retrieved, without an index of its own, at most <paramref name="limit"/> of them (<c>filter_limit</c>). For a one-off
    /// look at data no index covers; a recurring condition belongs in <c>Where</c>, which uses an index.
    /// </summary>
    public static IFolioQueryable<T> Filter<T>(this IQueryable<T> source, Expression<Func<T, bool>> predicate, int limit = int.MaxValue)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(limit);
        return Call(source, (MethodInfo)MethodBase.GetCurrentMethod()!, Expression.Quote(predicate), Expression.Constant(limit));
    }

    /// <summary>Brings the documents whose ids are at <paramref name="path"/> into the session with the results, so loading them needs no request.</summary>
    public static IFolioQueryable<T> Include<T>(this IQueryable<T> source, Expression<Func<T, object?>> path) =>
        Call(source, (MethodInfo)MethodBase.GetCurrentMethod()!, Expression.Quote(path));

    /// <summary>Sets options of this query: waiting for non-stale results, no tracking.</summary>
    public static IFolioQueryable<T> Customize<T>(this IQueryable<T> source, Action<IQueryCustomization> customize) =>
        Call(source, (MethodInfo)MethodBase.GetCurrentMethod()!, Expression.Constant(customize));

    /// <summary>Hands out an object the server's statistics of the query (total results, staleness, index) are written to when it runs.</summary>
    public static IFolioQueryable<T> Statistics<T>(this IQueryable<T> source, out QueryStatistics statistics)
    {
        statistics = new QueryStatistics();
        return Call(source, StatisticsMarkerMethod, Expression.Constant(statistics));
    }

    private static readonly MethodInfo StatisticsMarkerMethod = typeof(FolioQueryableExtensions).GetMethod(nameof(StatisticsMarker), BindingFlags.NonPublic | BindingFlags.Static)!;

    // Stands for Statistics in the expression tree (an out parameter cannot be a call's argument there); never run.
    internal static IQueryable<T> StatisticsMarker<T>(IQueryable<T> source, QueryStatistics statistics) => throw FolioQueryProvider.SynchronousUse();

    /// <summary>The RQL and parameters the query translates to, without running it.</summary>
    public static RqlQuery ToRql<T>(this IQueryable<T> source) =>
        source as IFolioQueryable<T> is { } query ? query.ToRql() : new FolioQueryable<T>(ProviderOf(source), source.Expression).ToRql();

    /// <summary>Runs the query and answers its results.</summary>
    public static async Task<List<T>> ToListAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default)
    {
        FolioQueryProvider provider = ProviderOf(source);
        TranslatedQuery query = provider.Translate(source.Expression, ResultOperator.List);
        return await provider.Session.RunQueryAsync<T>(query, cancellationToken).ConfigureAwait(false);
    }

    /// <summary>Runs the query and answers how many documents match (all of them, not a page).</summary>
    public static async Task<int> CountAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default)
    {
        FolioQueryProvider provider = ProviderOf(source);
        TranslatedQuery query = provider.Translate(source.Expression, ResultOperator.Count);
        QueryStatistics statistics = await provider.Session.RunQueryForStatisticsAsync(query, cancellationToken).ConfigureAwait(false);
        return checked((int)statistics.TotalResults);
    }

    /// <summary>Runs the query and answers whether any document matches.</summary>
    public static async Task<bool> AnyAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default)
    {
        FolioQueryProvider provider = ProviderOf(source);
        TranslatedQuery query = provider.Translate(source.Expression, ResultOperator.Any);
        QueryStatistics statistics = await provider.Session.RunQueryForStatisticsAsync(query, cancellationToken).ConfigureAwait(false);
        return statistics.TotalResults > 0;
    }

    /// <summary>The first result, or default when there is none.</summary>
    public static async Task<T?> FirstOrDefaultAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default)
    {
        FolioQueryProvider provider = ProviderOf(source);
        List<T> results = await provider.Session.RunQueryAsync<T>(provider.Translate(source.Expression, ResultOperator.FirstOrDefault), cancellationToken).ConfigureAwait(false);
        return results.Count > 0 ? results[0] : default;
    }

    /// <summary>The first result matching <paramref name="predicate"/>, or default when there is none.</summary>
    public static Task<T?> FirstOrDefaultAsync<T>(this IQueryable<T> source, Expression<Func<T, bool>> predicate, CancellationToken cancellationToken = default) =>
        source.Where(predicate).FirstOrDefaultAsync(cancellationToken);

    /// <summary>The first result; throws when there is none.</summary>
    public static async Task<T> FirstAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default)
    {
        FolioQueryProvider provider = ProviderOf(source);
        List<T> results = await provider.Session.RunQueryAsync<T>(provider.Translate(source.Expression, ResultOperator.First), cancellationToken).ConfigureAwait(false);
        return results.Count > 0 ? results[0] : throw new InvalidOperationException("The query has no results.");
    }

    /// <summary>The only result, or default when there is none; throws when there are several.</summary>
    public static async Task<T?> SingleOrDefaultAsync<T>(this IQueryable<T> source, CancellationToken cancellationToken = default)
    {
        FolioQueryProvider provider = ProviderOf(source);
        List<T> results = await provider.Session.RunQueryAsync<T>(provider.Translate(source.Expression, ResultOperator.SingleOrDefault), cancellationToken).ConfigureAwait(false);
        return results.Count switch
        {
            0 => default,
            1 => results[0],
            _ => throw new InvalidOperationException("The query has more than one result."),
        };
    }

    private static FolioQueryProvider ProviderOf<T>(IQueryable<T> source) =>
        source.Provider as FolioQueryProvider ?? throw new NotSupportedException("This is not a Folio query: start from session.Query<T>().");

    private static IFolioQueryable<T> Call<T>(IQueryable<T> source, MethodInfo method, params Expression[] arguments)
    {
        ProviderOf(source);
        return (IFolioQueryable<T>)source.Provider.CreateQuery<T>(
            Expression.Call(null, method.MakeGenericMethod(typeof(T)), [source.Expression, .. arguments]));
    }
}
