using System;
using System.IO;
using System.Net.Http;
using System.Net.Http.Headers;

class Upload {
    static void Main(string[] args) {
        var image = File.ReadAllBytes(args[0]);
        var form = new MultipartFormDataContent();
        var file = new ByteArrayContent(image);
        if (args.Length > 3) file.Headers.ContentType = new MediaTypeHeaderValue(args[3]);
        form.Add(new StringContent("token-123"), "csrf");
        form.Add(file, "photo", args[1]);
        File.WriteAllBytes(args[2], form.ReadAsByteArrayAsync().Result);
        File.WriteAllText(args[2] + ".content-type", form.Headers.ContentType.ToString());
    }
}
