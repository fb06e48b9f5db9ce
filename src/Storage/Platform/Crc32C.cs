using System.Buffers.Binary;
using System.Runtime.Intrinsics.Arm;
using System.Runtime.Intrinsics.X86;

namespace Folio.Storage.Platform;

/// <summary>
/// CRC-32C (Castagnoli), the checksum of journal records and file headers. Uses the CPU's CRC
/// instructions where present; the table fallback keeps other machines correct, only slower.
/// </summary>
public static class Crc32C
{
    private const uint Polynomial = 0x82F63B78u;
    private static readonly uint[] Table = BuildTable();

    /// <summary>Computes the CRC-32C of <paramref name="data"/>.</summary>
    public static uint Compute(ReadOnlySpan<byte> data) => Append(0, data);

    /// <summary>Continues a CRC-32C computed over earlier bytes with <paramref name="data"/>.</summary>
    public static uint Append(uint crc, ReadOnlySpan<byte> data)
    {
        crc = ~crc;
        if (Sse42.X64.IsSupported)
        {
            ulong c = crc;
            while (data.Length >= 8)
            {
                c = Sse42.X64.Crc32(c, BinaryPrimitives.ReadUInt64LittleEndian(data));
                data = data[8..];
            }
            crc = (uint)c;
            foreach (var b in data)
                crc = Sse42.Crc32(crc, b);
            return ~crc;
        }
        if (Crc32.Arm64.IsSupported)
        {
            while (data.Length >= 8)
            {
                crc = Crc32.Arm64.ComputeCrc32C(crc, BinaryPrimitives.ReadUInt64LittleEndian(data));
                data = data[8..];
            }
            foreach (var b in data)
                crc = Crc32.ComputeCrc32C(crc, b);
            return ~crc;
        }
        return ~AppendSoftware(crc, data);
    }

    internal static uint ComputeSoftware(ReadOnlySpan<byte> data) => ~AppendSoftware(~0u, data);

    private static uint AppendSoftware(uint crc, ReadOnlySpan<byte> data)
    {
        var table = Table;
        foreach (var b in data)
            crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8);
        return crc;
    }

    private static uint[] BuildTable()
    {
        var table = new uint[256];
        for (uint i = 0; i < 256; i++)
        {
            var c = i;
            for (var k = 0; k < 8; k++)
                c = (c & 1) != 0 ? (c >> 1) ^ Polynomial : c >> 1;
            table[i] = c;
        }
        return table;
    }
}
