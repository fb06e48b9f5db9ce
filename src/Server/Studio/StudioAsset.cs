namespace Folio.Server.Studio;

/// <summary>
/// One file of the studio as it is served: its bytes, and the gzip and Brotli forms made once when the
/// studio is first asked for, so a request only copies bytes.
/// </summary>
/// <param name="Path">Path below <c>/studio/</c>, with '/' separators, e.g. <c>src/api.js</c>.</param>
/// <param name="ContentType">Media type with charset where it has one.</param>
/// <param name="ETag">Strong entity tag of the identity bytes, quoted; the same for every encoding, as the Vary header tells caches.</param>
/// <param name="Identity">The file's bytes.</param>
/// <param name="Gzip">The gzip form, or null when compressing does not make the file smaller.</param>
/// <param name="Brotli">The Brotli form, or null when compressing does not make the file smaller.</param>
public sealed record StudioAsset(string Path, string ContentType, string ETag, byte[] Identity, byte[]? Gzip, byte[]? Brotli);
