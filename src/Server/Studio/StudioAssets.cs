using System.Collections.Frozen;
using System.Diagnostics.CodeAnalysis;
using System.IO.Compression;
using System.Reflection;
using System.Security.Cryptography;

namespace Folio.Server.Studio;

/// <summary>
/// The studio's files, embedded in this assembly from the repository's <c>studio/</c> folder (see
/// Folio.Server.csproj) under manifest names starting <c>studio/</c>. They are read and compressed once,
/// on the first request for the studio, so servers that never serve it (most tests) pay nothing.
/// </summary>
public static class StudioAssets
{
    /// <summary>The prefix of the studio's manifest resource names.</summary>
    public const string ResourcePrefix = "studio/";

    private static readonly Lazy<FrozenDictionary<string, StudioAsset>> s_assets = new(Load);

    private static readonly FrozenDictionary<string, string> s_contentTypes = new Dictionary<string, string>(StringComparer.OrdinalIgnoreCase)
    {
        [".html"] = "text/html; charset=utf-8",
        [".js"] = "text/javascript; charset=utf-8",
        [".css"] = "text/css; charset=utf-8",
        [".json"] = "application/json; charset=utf-8",
        [".svg"] = "image/svg+xml",
        [".png"] = "image/png",
        [".ico"] = "image/x-icon",
        [".txt"] = "text/plain; charset=utf-8",
    }.ToFrozenDictionary(StringComparer.OrdinalIgnoreCase);

    /// <summary>Every file by its path below <c>/studio/</c> (case-sensitive, as URLs are).</summary>
    public static FrozenDictionary<string, StudioAsset> All => s_assets.Value;

    /// <summary>Finds a file.</summary>
    /// <param name="path">The path below <c>/studio/</c>, without a leading '/'.</param>
    /// <param name="asset">The file, when there is one.</param>
    /// <returns>Whether there is one.</returns>
    public static bool TryGet(ReadOnlySpan<char> path, [NotNullWhen(true)] out StudioAsset? asset) =>
        s_assets.Value.GetAlternateLookup<ReadOnlySpan<char>>().TryGetValue(path, out asset);

    private static FrozenDictionary<string, StudioAsset> Load()
    {
        Assembly assembly = typeof(StudioAssets).Assembly;
        var assets = new Dictionary<string, StudioAsset>(StringComparer.Ordinal);
        foreach (string name in assembly.GetManifestResourceNames())
        {
            // MSBuild's RecursiveDir uses the build machine's separator.
            string normalized = name.Replace('\\', '/');
            if (!normalized.StartsWith(ResourcePrefix, StringComparison.Ordinal))
                continue;

            string path = normalized[ResourcePrefix.Length..];
            if (!s_contentTypes.TryGetValue(Path.GetExtension(path), out string? contentType))
                continue;

            using Stream stream = assembly.GetManifestResourceStream(name)!;
            using var copy = new MemoryStream();
            stream.CopyTo(copy);
            byte[] bytes = copy.ToArray();
            bool compressible = !contentType.StartsWith("image/png", StringComparison.Ordinal);
            assets[path] = new StudioAsset(
                path,
                contentType,
                ETagOf(bytes),
                bytes,
                compressible ? Smaller(bytes, Gzip(bytes)) : null,
                compressible ? Smaller(bytes, Brotli(bytes)) : null);
        }

        return assets.ToFrozenDictionary(StringComparer.Ordinal);
    }

    private static string ETagOf(byte[] bytes)
    {
        Span<byte> hash = stackalloc byte[32];
        SHA256.HashData(bytes, hash);
        return "\"" + Convert.ToBase64String(hash[..18]).Replace('+', '-').Replace('/', '_') + "\"";
    }

    private static byte[]? Smaller(byte[] identity, byte[] compressed) => compressed.Length < identity.Length ? compressed : null;

    private static byte[] Gzip(byte[] bytes)
    {
        using var output = new MemoryStream();
        using (var gzip = new GZipStream(output, CompressionLevel.SmallestSize, leaveOpen: true))
            gzip.Write(bytes);
        return output.ToArray();
    }

    private static byte[] Brotli(byte[] bytes)
    {
        byte[] output = new byte[BrotliEncoder.GetMaxCompressedLength(bytes.Length)];
        // Quality 11, window 22: the smallest output; the cost is paid once per process.
        if (!BrotliEncoder.TryCompress(bytes, output, out int written, quality: 11, window: 22))
            throw new InvalidOperationException("Brotli could not compress a studio file into its maximum compressed length.");
        return output.AsSpan(0, written).ToArray();
    }
}
