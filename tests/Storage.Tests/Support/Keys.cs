using System.Buffers.Binary;
using System.Text;

namespace Folio.Storage.Tests.Support;

public static class Keys
{
    public static byte[] Of(string text) => Encoding.UTF8.GetBytes(text);

    public static byte[] Of(int number)
    {
        var key = new byte[8];
        BinaryPrimitives.WriteInt64BigEndian(key, number);
        return key;
    }

    public static string Text(ReadOnlySpan<byte> bytes) => Encoding.UTF8.GetString(bytes);

    public static byte[] Value(int seed, int length)
    {
        var value = new byte[length];
        new Random(seed).NextBytes(value);
        return value;
    }
}
