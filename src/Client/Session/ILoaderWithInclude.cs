using System.Linq.Expressions;

namespace Folio.Client.Session;

/// <summary>A load that also brings referred documents into the session.</summary>
/// <typeparam name="T">The type the include paths are written against.</typeparam>
public interface ILoaderWithInclude<T>
{
    /// <summary>Adds another path whose referred documents to include.</summary>
    ILoaderWithInclude<T> Include(Expression<Func<T, object?>> path);

    /// <summary>Adds another path (<c>Lines[].ProductId</c>) whose referred documents to include.</summary>
    ILoaderWithInclude<T> Include(string path);

    /// <summary>Loads <paramref name="id"/> and the included documents in one request.</summary>
    Task<TResult?> LoadAsync<TResult>(string id, CancellationToken cancellationToken = default) where TResult : class;

    /// <summary>Loads <paramref name="ids"/> and the included documents in one request.</summary>
    Task<Dictionary<string, TResult?>> LoadAsync<TResult>(IEnumerable<string> ids, CancellationToken cancellationToken = default) where TResult : class;
}
