namespace Folio.Server.Routing;

/// <summary>
/// A route's handler. It writes a successful response itself and reports failures by throwing
/// (see <see cref="Http.FolioHttpException"/>). It returns <see cref="ValueTask"/> so handlers that
/// finish synchronously cost no task allocation.
/// </summary>
/// <param name="request">The request with its captured route values.</param>
/// <returns>Completes when the response is written.</returns>
public delegate ValueTask FolioRequestHandler(FolioRequest request);
