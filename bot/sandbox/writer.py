"""Turkish Markdown articles of a given length, assembled from a small sentence bank."""

from __future__ import annotations

import itertools
import random

__all__ = ["write_article"]

_SENTENCES = (
    "{konu} konusu, son yıllarda hem işletmelerin hem de bireylerin gündeminde giderek daha"
    " fazla yer tutuyor.",
    "Bu alanda doğru adımları atmak, uzun vadede zaman ve bütçe açısından ciddi kazançlar sağlar.",
    "Uzmanlar, {konu} hakkında karar vermeden önce mevcut durumun dikkatle analiz edilmesini"
    " öneriyor.",
    "Planlı bir yaklaşım, karşılaşılabilecek sorunların büyük bölümünü daha başlamadan ortadan"
    " kaldırır.",
    "Kullanıcı deneyimi, sürecin her aşamasında göz önünde tutulması gereken temel unsurlardan"
    " biridir.",
    "Küçük ama düzenli iyileştirmeler, zamanla beklenenden çok daha büyük sonuçlar doğurabilir.",
    "{konu} ile ilgili en sık yapılan hata, hedefleri net olarak belirlemeden işe koyulmaktır.",
    "Ölçülebilir hedefler koymak, ilerlemeyi takip etmeyi ve gerektiğinde yön değiştirmeyi"
    " kolaylaştırır.",
    "Rakiplerin neler yaptığını izlemek, kendi stratejinizi geliştirirken değerli ipuçları sunar.",
    "Verilere dayalı kararlar, sezgiye dayalı tahminlere göre genellikle daha güvenilir sonuçlar"
    " verir.",
    "Bu noktada doğru araçları seçmek, ekibin verimliliğini doğrudan etkileyen bir etkendir.",
    "{konu} sürecinde şeffaf iletişim, paydaşların güvenini kazanmanın en etkili yollarından"
    " biridir.",
    "Her yeni uygulama küçük bir denemeyle başlatılmalı ve sonuçlarına göre genişletilmelidir.",
    "Bütçe planlanırken beklenmedik giderler için de bir pay ayırmak akıllıca olacaktır.",
    "Teknolojideki hızlı değişim, bu alandaki yöntemlerin de sürekli güncellenmesini zorunlu"
    " kılıyor.",
    "Okuyucuların ve müşterilerin geri bildirimleri, geliştirme sürecinin en değerli"
    " kaynaklarındandır.",
    "{konu} için hazırlanan bir yol haritası, ekibin aynı hedefe odaklanmasına yardımcı olur.",
    "Kaliteli içerik, arama motorlarında görünürlüğü artırırken marka güvenilirliğini de"
    " güçlendirir.",
    "Sabırlı ve tutarlı bir çalışma temposu, kısa süreli yoğun çabalardan daha kalıcı sonuçlar"
    " getirir.",
    "Başarılı örnekleri incelemek, hangi yöntemlerin gerçekten işe yaradığını anlamayı"
    " kolaylaştırır.",
    "Eğitim ve bilgi paylaşımı, ekip içindeki yetkinliğin artmasında belirleyici bir rol oynar.",
    "Yasal düzenlemeleri takip etmek, ileride yaşanabilecek sorunların önüne geçmek için"
    " gereklidir.",
    "{konu} alanındaki gelişmeler, yakın gelecekte yeni fırsatların kapısını aralayacak gibi"
    " görünüyor.",
    "Riskleri önceden belirlemek ve her biri için bir plan hazırlamak, süreci daha güvenli kılar.",
    "Doğru zamanlama, iyi hazırlanmış bir planın başarıya ulaşmasında çoğu zaman belirleyicidir.",
    "Sonuçları düzenli aralıklarla raporlamak, hem motivasyonu hem de hesap verebilirliği artırır.",
    "Farklı bakış açılarına sahip ekip üyeleri, sorunlara daha yaratıcı çözümler üretebilir.",
    "Mobil cihazların yaygınlaşması, kullanıcıların beklentilerini de köklü biçimde değiştirdi.",
    "{konu} hakkında güvenilir kaynaklardan bilgi edinmek, yanlış kararların önüne geçer.",
    "Uzun vadeli düşünmek, anlık kazançlara kapılmadan sağlam adımlar atmayı sağlar.",
)
_HEADINGS = (
    "Neden Önemli?",
    "Temel Kavramlar",
    "Dikkat Edilmesi Gerekenler",
    "Adım Adım Uygulama",
    "Sık Yapılan Hatalar",
    "Uzman Önerileri",
    "Maliyet ve Bütçe",
    "Gelecekteki Eğilimler",
    "Başarı Örnekleri",
    "Kullanılan Araçlar",
    "Ölçme ve Değerlendirme",
    "Riskler ve Çözümler",
    "Pratik İpuçları",
)
_BULLETS = (
    "Hedeflerinizi ölçülebilir biçimde belirleyin.",
    "Sonuçları düzenli aralıklarla gözden geçirin.",
    "Kullanıcı geri bildirimlerini toplayıp değerlendirin.",
    "Bütçenizi gerçekçi bir şekilde planlayın.",
    "Sektördeki güncel gelişmeleri yakından izleyin.",
    "Küçük denemelerle başlayıp işe yarayanları büyütün.",
    "Ekibinizle bilgi paylaşımını sürdürün.",
    "Riskleri önceden belirleyip önlem alın.",
)
_STEPS = (
    "Mevcut durumu ve kaynaklarınızı analiz edin.",
    "Ölçülebilir hedefler belirleyin.",
    "Küçük bir denemeyle başlayın.",
    "Sonuçları ölçüp raporlayın.",
    "İşe yarayan yöntemleri büyütün.",
    "Ekibinizle öğrendiklerinizi paylaşın.",
)
_TABLE_HEADER = "| Yöntem | Maliyet | Süre |\n|---|---|---|"
_TABLE_ROWS = (
    "| İçerik pazarlaması | Orta | 3-6 ay |",
    "| SEO çalışması | Düşük | 6-12 ay |",
    "| Ücretli reklam | Yüksek | Hemen |",
    "| Sosyal medya | Düşük | 1-3 ay |",
    "| E-posta bülteni | Düşük | 1-2 ay |",
)
_CONCLUSION = (
    "Sonuç olarak **{konu}** konusunda *planlı, ölçülü ve sabırlı* ilerlemek kalıcı başarının"
    " anahtarıdır. Daha fazlası için [kaynaklar](https://example.com/kaynaklar) sayfasına"
    " bakın."
)
# The closing section adds about this many words; a paragraph about twice as many.
_CONCLUSION_WORDS = 45
_PARAGRAPH_WORDS = 70


def write_article(title: str, words: int, rng: random.Random) -> str:
    """A Markdown article about `title` of roughly `words` words."""
    konu = title.strip()

    def paragraph(sentences: int) -> str:
        return " ".join(rng.sample(_SENTENCES, sentences)).replace("{konu}", konu)

    steps = "\n".join(f"{n}. {step}" for n, step in enumerate(rng.sample(_STEPS, 4), 1))
    table = "\n".join([_TABLE_HEADER, *rng.sample(_TABLE_ROWS, 3)])
    # Every article has a numbered list and a table, so that a chat shows how it renders them.
    blocks = [f"# {konu}", paragraph(4), "Başlamak için şu adımları izleyin:", steps]
    count = sum(len(block.split()) for block in blocks) + len(table.split())
    per_section = 3 if words > 1500 else 2
    headings = itertools.cycle(rng.sample(_HEADINGS, len(_HEADINGS)))
    bullets_after = rng.randint(0, per_section - 1)
    written = 0
    # Stopping half a paragraph early centres the final length on the target.
    while count + _PARAGRAPH_WORDS // 2 < words - _CONCLUSION_WORDS:
        new = [paragraph(rng.randint(4, 6))]
        if written % per_section == 0:
            new.insert(0, f"## {next(headings)}")
        if written == bullets_after:
            new.append("\n".join(f"- {item}" for item in rng.sample(_BULLETS, 4)))
        blocks += new
        count += sum(len(block.split()) for block in new)
        written += 1
    blocks += ["Yaygın yöntemlerin kısa bir karşılaştırması:", table]
    blocks += ["## Sonuç", f"{paragraph(2)} {_CONCLUSION.replace('{konu}', konu)}"]
    return "\n\n".join(blocks) + "\n"
